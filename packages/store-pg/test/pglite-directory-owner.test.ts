import { chmodSync, chownSync, lchownSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { isMemsvcError } from '@memsvc/core';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { openDatabase, type StoreConnection } from '../src/index.js';
import { temporaryDirectory } from './support/each-engine.js';

/** nobody: the other OS user of these tests. Only root can give it files. */
const OTHER_UID = 65534;
const isRoot = process.getuid?.() === 0;
const posix = process.platform !== 'win32';

/** The error of opening `url` and running a statement there (an attached process connects lazily). */
async function refusal(url: string): Promise<{ code: string; message: string; data: Record<string, unknown> }> {
  const error = await openDatabase(url, { pgliteAttachPatienceMs: 2_000 }).then(
    async (connection) => {
      try {
        await sql`SELECT 1`.execute(connection.db);
        return undefined;
      } catch (caught) {
        return caught;
      } finally {
        await connection.close();
      }
    },
    (caught: unknown) => caught,
  );
  expect(isMemsvcError(error), `expected a refusal, got ${String(error)}`).toBe(true);
  return error as { code: string; message: string; data: Record<string, unknown> };
}

/** A directory of ours, mode 0700, as memsvc makes it. */
function ownDirectory(): string {
  const directory = join(temporaryDirectory(), 'data');
  mkdirSync(directory, { mode: 0o700 });
  chmodSync(directory, 0o700);
  return directory;
}

// Issue 51 #4: another OS user who made the directory (or a file in it) first would host the
// database or plant its socket, and read and write every memory of the one who attaches.
describe.runIf(posix)('who owns a pglite:// directory', () => {
  const open: StoreConnection[] = [];
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it.runIf(isRoot)(
    verifies('R-PGLITE-OWNER', "refuses a directory another OS user owns, naming the owner's uid and the path, and writes nothing in it"),
    async () => {
      const directory = join(temporaryDirectory(), 'data');
      mkdirSync(directory, { mode: 0o700 });
      chownSync(directory, OTHER_UID, OTHER_UID);
      const error = await refusal(`pglite://${directory}`);
      expect(error.code).toBe('DATABASE_LOCKED');
      expect(error.message).toContain(`${directory} belongs to another OS user (uid ${OTHER_UID}`);
      expect(error.data).toMatchObject({ path: directory, ownerUid: OTHER_UID });
      expect(readdirSync(directory)).toEqual([]);
    },
  );

  it(verifies('R-PGLITE-OWNER', 'refuses a directory of ours that others can write (0777), naming its mode and path'), async () => {
    const directory = ownDirectory();
    chmodSync(directory, 0o777);
    const error = await refusal(`pglite://${directory}`);
    expect(error.code).toBe('STORAGE_UNAVAILABLE');
    expect(error.message).toContain(`${directory} is writable by its group and other users (mode 0777)`);
    expect(error.message).toMatch(/chmod 700/);
    expect(readdirSync(directory)).toEqual([]);
    expect(statSync(directory).mode & 0o777).toBe(0o777);
  });

  it.runIf(isRoot)(verifies('R-PGLITE-OWNER', 'refuses a lock file another OS user owns, naming it'), async () => {
    const directory = ownDirectory();
    const lock = join(directory, 'memsvc.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, hostname: 'elsewhere', nonce: 'x', acquiredAt: 'then' }), { mode: 0o644 });
    chownSync(lock, OTHER_UID, OTHER_UID);
    const error = await refusal(`pglite://${directory}`);
    expect(error.code).toBe('DATABASE_LOCKED');
    expect(error.message).toContain(`lock file ${lock} belongs to another OS user (uid ${OTHER_UID}`);
  });

  it.runIf(isRoot)(verifies('R-PGLITE-OWNER', 'refuses a socket another OS user owns, naming it'), async () => {
    const directory = ownDirectory();
    const socketPath = join(directory, '.s.PGSQL.5432');
    const server = createServer((socket) => socket.destroy());
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    lchownSync(socketPath, OTHER_UID, OTHER_UID);
    const error = await refusal(`pglite://${directory}`);
    expect(error.code).toBe('DATABASE_LOCKED');
    expect(error.message).toContain(`socket ${socketPath} belongs to another OS user (uid ${OTHER_UID}`);
  });

  it.runIf(isRoot)(
    verifies(
      'R-PGLITE-OWNER',
      'refuses a directory reached through a symbolic link another OS user owns (it could point it elsewhere later)',
    ),
    async () => {
      const target = ownDirectory();
      const link = join(temporaryDirectory(), 'data-link');
      symlinkSync(target, link);
      lchownSync(link, OTHER_UID, OTHER_UID);
      const error = await refusal(`pglite://${link}`);
      expect(error.code).toBe('DATABASE_LOCKED');
      expect(error.message).toContain(`directory (a symbolic link) ${link} belongs to another OS user (uid ${OTHER_UID}`);
      expect(readdirSync(target)).toEqual([]);
    },
  );

  it(verifies('R-PGLITE-OWNER', 'refuses a lock file that is a symbolic link'), async () => {
    const directory = ownDirectory();
    const elsewhere = join(temporaryDirectory(), 'someone-elses.lock');
    writeFileSync(elsewhere, '');
    symlinkSync(elsewhere, join(directory, 'memsvc.lock'));
    const error = await refusal(`pglite://${directory}`);
    expect(error.code).toBe('STORAGE_UNAVAILABLE');
    expect(error.message).toMatch(/memsvc\.lock is a symbolic link/);
  });

  it(
    verifies('R-PGLITE-OWNER', 'creates a new directory 0700, and the parents it creates writable by no one else, even under umask 000'),
    async () => {
      const base = temporaryDirectory();
      const directory = join(base, 'made', 'by', 'memsvc');
      const umask = process.umask(0);
      try {
        const connection = await openDatabase(`pglite://${directory}`);
        open.push(connection);
      } finally {
        process.umask(umask);
      }
      expect(statSync(directory).mode & 0o777).toBe(0o700);
      for (const parent of [join(base, 'made'), join(base, 'made', 'by')]) {
        expect((statSync(parent).mode & 0o022).toString(8), parent).toBe('0');
      }
    },
  );
});
