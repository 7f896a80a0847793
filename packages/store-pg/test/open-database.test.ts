import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMemsvcError, type TenantId } from '@memsvc/core';
import { afterEach, describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { isTransientDatabaseError, type MemsvcStore, openDatabase } from '../src/index.js';
import { temporaryDirectory } from './support/each-engine.js';
import { openTestStore } from './support/open-test-store.js';

const holderScript = fileURLToPath(new URL('./fixtures/hold-pglite.mjs', import.meta.url));

/**
 * Whether a user that is neither the owner nor in the group can run the holder script: every
 * directory above it searchable and the file readable by others. A checkout in a private
 * directory (`mktemp -d` makes them 0700) cannot host the other-OS-user case at all.
 */
function othersCanRun(file: string): boolean {
  if ((statSync(file).mode & 0o004) === 0) return false;
  for (let directory = dirname(file); ; directory = dirname(directory)) {
    if ((statSync(directory).mode & 0o001) === 0) return false;
    if (dirname(directory) === directory) return true;
  }
}
const tenant = 'tenant-a' as TenantId;

async function expectCode(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isMemsvcError(error), `expected a MemsvcError ${code}, got ${String(error)}`).toBe(true);
  expect((error as { code: string }).code).toBe(code);
  return error as Error;
}

describe('opening a database: bad URLs and unreachable servers', () => {
  it('refuses a URL with an unknown scheme, naming DATABASE_URL', async () => {
    const error = await expectCode(openDatabase('mysql://root@localhost/db'), 'INVALID_CONFIG');
    expect(error.message).toMatch(/DATABASE_URL: unsupported scheme "mysql"/);
  });

  it('reports an unreachable PostgreSQL as DATABASE_UNREACHABLE without leaking the password', async () => {
    const error = await expectCode(
      openDatabase('postgres://memsvc:hunter2-secret@127.0.0.1:1/memsvc', { connectTimeoutMs: 2000 }),
      'DATABASE_UNREACHABLE',
    );
    expect(error.message).toMatch(/cannot reach PostgreSQL at postgres:\/\/memsvc:\*\*\*\*\*@127\.0\.0\.1:1\/memsvc/);
    expect(error.message).not.toContain('hunter2');
  });
});

describe('embedded PGlite directories', () => {
  const stores: MemsvcStore[] = [];
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  it('refuses a directory that cannot be created and leaves nothing behind', async () => {
    const root = temporaryDirectory();
    writeFileSync(join(root, 'a-file'), 'not a directory');
    const error = await expectCode(openTestStore({ database: `pglite://${join(root, 'a-file', 'data')}` }), 'STORAGE_UNAVAILABLE');
    expect(error.message).toMatch(/is not writable/);
    expect(readdirSync(root)).toEqual(['a-file']);
  });

  it('refuses a path that is a file', async () => {
    const root = temporaryDirectory();
    writeFileSync(join(root, 'data'), '');
    const error = await expectCode(openTestStore({ database: `pglite://${join(root, 'data')}` }), 'STORAGE_UNAVAILABLE');
    expect(error.message).toMatch(/exists and is not a directory/);
  });

  it('keeps data across close and reopen', async () => {
    const directory = join(temporaryDirectory(), 'data');
    const first = await openTestStore({ database: `pglite://${directory}` });
    const memory = await first.memories.insertAsGiven(tenant, { tier: 'ltm', content: 'persisted' }, { id: 'test' });
    await first.close();
    expect(existsSync(join(directory, 'memsvc.lock'))).toBe(false);

    const second = await openTestStore({ database: `pglite://${directory}` });
    stores.push(second);
    expect((await second.memories.findById(tenant, memory.id))?.content).toBe('persisted');
  });

  it(
    verifies(
      'R-PGLITE-SHARED',
      "a second open of a directory attaches to the first: each sees the other's writes, and it takes over when the first closes",
    ),
    async () => {
      const directory = join(temporaryDirectory(), 'data');
      const first = await openTestStore({ database: `pglite://${directory}` });
      const second = await openTestStore({ database: `pglite://${directory}` });
      stores.push(second);
      expect([first.connection.hosting?.(), second.connection.hosting?.()]).toEqual([true, false]);
      const fromFirst = await first.memories.insertAsGiven(tenant, { tier: 'ltm', content: 'from the first' }, { id: 'test' });
      const fromSecond = await second.memories.insertAsGiven(tenant, { tier: 'ltm', content: 'from the second' }, { id: 'test' });
      expect((await second.memories.findById(tenant, fromFirst.id))?.content).toBe('from the first');
      expect((await first.memories.findById(tenant, fromSecond.id))?.content).toBe('from the second');

      await first.close();
      // A call on a connection the host broke may fail, retryably; the next one is served by the new host.
      const read = () => second.memories.findById(tenant, fromFirst.id);
      const found = await read().catch(async (error: unknown) => {
        expect(isTransientDatabaseError(error), String(error)).toBe(true);
        return read();
      });
      expect(found?.content).toBe('from the first');
      expect(second.connection.hosting?.()).toBe(true);
    },
  );

  it(verifies('R-PGLITE-SHARED', 'refuses to attach to a host of another build, naming it'), async () => {
    const directory = join(temporaryDirectory(), 'data');
    stores.push(await openTestStore({ database: `pglite://${directory}` }));
    const hostFile = join(directory, 'memsvc.host');
    const host = JSON.parse(readFileSync(hostFile, 'utf8')) as { pid: number; build: string };
    expect(host.pid).toBe(process.pid);
    writeFileSync(hostFile, JSON.stringify({ ...host, build: 'an-older-build' }));
    const error = await expectCode(openTestStore({ database: `pglite://${directory}` }), 'DATABASE_LOCKED');
    expect(error.message).toMatch(/another build \(an-older-build; this one is [0-9a-f]{16}\)/);
  });

  it(verifies('R-PGLITE-SHARED', "the directory and its socket are its owner's alone (0700, 0600)"), async () => {
    const directory = join(temporaryDirectory(), 'data');
    stores.push(await openTestStore({ database: `pglite://${directory}` }));
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    const socket = statSync(join(directory, '.s.PGSQL.5432'));
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o777).toBe(0o600);
  });

  // Needs root (to start a child as nobody) and a checkout other users can read.
  it.runIf(process.getuid?.() === 0 && othersCanRun(holderScript))(
    verifies('R-PGLITE-SHARED', 'a process of another OS user cannot attach'),
    async () => {
      const directory = join(temporaryDirectory(), 'data');
      stores.push(await openTestStore({ database: `pglite://${directory}` }));
      const other = await runToExit(directory, 'open', { uid: 65534, gid: 65534 });
      expect(other.output, `the child (uid 65534) printed no answer; its stderr: ${other.errors}`).not.toBeNull();
      expect(other.exitCode).toBe(1);
      expect(other.output).toMatchObject({ code: 'DATABASE_LOCKED', message: expect.stringMatching(/belongs to another OS user/) });
    },
  );

  it(
    verifies(
      'R-PGLITE-SHARED',
      'other processes attach to the host; when it is killed one takes over with every acknowledged write and no duplicate',
    ),
    async () => {
      const directory = join(temporaryDirectory(), 'data');
      const holder = spawn(process.execPath, [holderScript, directory, 'hold'], { stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(holder);
      const ready = JSON.parse(await firstLine(holder)) as { ready: boolean; id: string; host: boolean };
      expect(ready).toMatchObject({ ready: true, host: true });

      const visitor = await runToExit(directory, 'open');
      expect(visitor).toMatchObject({ exitCode: 0, output: { opened: true, host: false } });

      const writers = ['left', 'right'].map((label) => {
        const child = spawn(process.execPath, [holderScript, directory, 'write', label, '60'], { stdio: ['ignore', 'pipe', 'inherit'] });
        children.push(child);
        return collect(child);
      });
      // Some writes acknowledged by the first host, then it is killed mid-stream.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      holder.kill('SIGKILL');
      const results = await Promise.all(writers);
      // A writer that gave up says why on its last line ({code, message}).
      for (const result of results) expect(result.exitCode, JSON.stringify(result.lines.at(-1))).toBe(0);
      const acknowledged = results.flatMap((result) => result.lines as { id: string; content: string }[]);
      expect(acknowledged).toHaveLength(120);

      const reader = await openTestStore({ database: `pglite://${directory}` });
      stores.push(reader);
      for (const { id, content } of acknowledged) expect((await reader.memories.findById(tenant, id))?.content).toBe(content);
      const stored = await reader.connection.db.selectFrom('memories').select('content').where('user_id', '=', tenant).execute();
      const contents = stored.map((row) => row.content);
      expect(new Set(contents).size).toBe(contents.length);
      expect(contents).toContain('written before the kill');
    },
  );

  it('takes over a lock whose holder was killed but not yet reaped by its parent (a zombie)', async () => {
    const directory = join(temporaryDirectory(), 'data');
    // `exec sleep` becomes the holder's parent and never reaps it: killed, the holder stays a zombie.
    const parent = spawn('sh', ['-c', `"${process.execPath}" "${holderScript}" "${directory}" hold & exec sleep 120`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(parent);
    const ready = JSON.parse(await firstLine(parent)) as { ready: boolean; id: string };
    expect(ready.ready).toBe(true);
    const holderPid = (JSON.parse(readFileSync(join(directory, 'memsvc.lock'), 'utf8')) as { pid: number }).pid;
    expect(holderPid).not.toBe(parent.pid);
    process.kill(holderPid, 'SIGKILL');
    const state = () => readFileSync(`/proc/${holderPid}/stat`, 'utf8').split(') ')[1]?.[0];
    for (let i = 0; i < 200 && state() !== 'Z'; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(state()).toBe('Z');

    const reopened = await openTestStore({ database: `pglite://${directory}` });
    stores.push(reopened);
    expect((await reopened.memories.findById(tenant, ready.id))?.content).toBe('written before the kill');
  });

  it('takes over a lock whose process no longer exists', async () => {
    const directory = join(temporaryDirectory(), 'data');
    mkdirSync(directory, { recursive: true });
    writeFileSync(
      join(directory, 'memsvc.lock'),
      JSON.stringify({ pid: 2 ** 22 + 12345, hostname: (await import('node:os')).hostname(), nonce: 'x', acquiredAt: 'then' }),
    );
    const store = await openTestStore({ database: `pglite://${directory}` });
    stores.push(store);
    expect((await store.health()).database).toBe(true);
  });
});

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const newline = buffer.indexOf('\n');
      if (newline >= 0) resolve(buffer.slice(0, newline));
    });
    child.once('exit', (code) => reject(new Error(`child exited with ${code} before reporting`)));
  });
}

function runToExit(
  directory: string,
  mode: string,
  user: { uid?: number; gid?: number } = {},
): Promise<{ exitCode: number | null; output: unknown; errors: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [holderScript, directory, mode], { stdio: ['ignore', 'pipe', 'pipe'], ...user });
    let buffer = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    // A child that could not start (another OS user cannot read a private checkout) prints no
    // line: it resolves with no output at once, so the test fails with its stderr, not a timeout.
    child.once('exit', (exitCode) => {
      const last = buffer.trim().split('\n').at(-1);
      resolve({ exitCode, output: last ? (JSON.parse(last) as unknown) : null, errors });
    });
  });
}

/** Every line a child prints (JSON), and how it exited. */
function collect(child: ChildProcess): Promise<{ exitCode: number | null; lines: unknown[] }> {
  return new Promise((resolve) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
    });
    child.once('exit', (exitCode) =>
      resolve({
        exitCode,
        lines: buffer
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as unknown),
      }),
    );
  });
}

describe('the PGlite directory lock', () => {
  const stores: MemsvcStore[] = [];
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  it(
    verifies('R-PGLITE-SHARED', 'of several processes starting together on a new directory exactly one hosts and every one gets in'),
    async () => {
      const directory = join(temporaryDirectory(), 'data');
      const starters = Array.from({ length: 3 }, () => {
        const child = spawn(process.execPath, [holderScript, directory, 'hold'], { stdio: ['ignore', 'pipe', 'inherit'] });
        children.push(child);
        return firstLineOrExit(child);
      });
      const outcomes = (await Promise.all(starters)).map((line) => JSON.parse(line) as { ready?: boolean; host?: boolean; id?: string });
      expect(outcomes.filter((outcome) => outcome.ready)).toHaveLength(3);
      expect(outcomes.filter((outcome) => outcome.host)).toHaveLength(1);

      for (const child of children.splice(0)) child.kill('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const reopened = await openTestStore({ database: `pglite://${directory}` });
      stores.push(reopened);
      for (const outcome of outcomes)
        expect((await reopened.memories.findById(tenant, outcome.id ?? ''))?.content).toBe('written before the kill');
    },
  );

  it('takes over a lock left by an earlier life of the same pid (a container restarted after SIGKILL)', async () => {
    const directory = join(temporaryDirectory(), 'data');
    mkdirSync(directory, { recursive: true });
    writeFileSync(
      join(directory, 'memsvc.lock'),
      JSON.stringify({ pid: process.pid, hostname: hostname(), nonce: 'previous-life', processStart: null, acquiredAt: 'then' }),
    );
    const store = await openTestStore({ database: `pglite://${directory}` });
    stores.push(store);
    expect((await store.health()).database).toBe(true);
  });

  it('treats a lock file being written (unreadable, fresh) as held, and an old unreadable one as debris', async () => {
    const directory = join(temporaryDirectory(), 'data');
    mkdirSync(directory, { recursive: true });
    const lockPath = join(directory, 'memsvc.lock');
    writeFileSync(lockPath, '{"pid": 12');
    // Held, by a process that serves nothing yet: a call waits for it, then gives up with a retryable error.
    const error = await expectCode(
      openTestStore({ database: `pglite://${directory}`, pool: { pgliteAttachPatienceMs: 500 } }),
      'STORAGE_UNAVAILABLE',
    );
    expect(error.message).toMatch(/is not being served/);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockPath, old, old);
    const store = await openTestStore({ database: `pglite://${directory}` });
    stores.push(store);
    expect((await store.health()).database).toBe(true);
  });
});

function firstLineOrExit(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const newline = buffer.indexOf('\n');
      if (newline >= 0) resolve(buffer.slice(0, newline));
    });
    child.once('exit', () => resolve(buffer.trim() || '{}'));
  });
}
