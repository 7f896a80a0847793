import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMemsvcError, type TenantId } from '@memsvc/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type MemsvcStore, openDatabase } from '../src/index.js';
import { temporaryDirectory } from './support/each-engine.js';
import { openTestStore } from './support/open-test-store.js';

const holderScript = fileURLToPath(new URL('./fixtures/hold-pglite.mjs', import.meta.url));
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
    const memory = await first.memories.insert(tenant, { tier: 'ltm', content: 'persisted' }, { id: 'test' });
    await first.close();
    expect(existsSync(join(directory, 'memsvc.lock'))).toBe(false);

    const second = await openTestStore({ database: `pglite://${directory}` });
    stores.push(second);
    expect((await second.memories.findById(tenant, memory.id))?.content).toBe('persisted');
  });

  it('refuses a second open of the same directory in the same process', async () => {
    const directory = join(temporaryDirectory(), 'data');
    stores.push(await openTestStore({ database: `pglite://${directory}` }));
    const error = await expectCode(openTestStore({ database: `pglite://${directory}` }), 'DATABASE_LOCKED');
    expect(error.message).toMatch(/already open in this process/);
  });

  it('refuses a second process on the same directory, then lets it in once the first is killed, with no lost write', async () => {
    const directory = join(temporaryDirectory(), 'data');
    const holder = spawn(process.execPath, [holderScript, directory, 'hold'], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(holder);
    const ready = JSON.parse(await firstLine(holder)) as { ready: boolean; id: string };
    expect(ready.ready).toBe(true);

    const second = await runToExit(directory, 'open');
    expect(second.exitCode).toBe(1);
    expect(second.output).toMatchObject({ code: 'DATABASE_LOCKED' });
    expect((second.output as { message: string }).message).toMatch(new RegExp(`process ${holder.pid}`));

    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    // The killed process left its lock file; it is stale now and is taken over.
    const reopened = await openTestStore({ database: `pglite://${directory}` });
    stores.push(reopened);
    expect((await reopened.memories.findById(tenant, ready.id))?.content).toBe('written before the kill');
  });

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

function runToExit(directory: string, mode: string): Promise<{ exitCode: number | null; output: unknown }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [holderScript, directory, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
    });
    child.once('exit', (exitCode) => resolve({ exitCode, output: JSON.parse(buffer.trim().split('\n').at(-1) ?? 'null') }));
  });
}

describe('the PGlite directory lock', () => {
  const stores: MemsvcStore[] = [];
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  it('lets exactly one of several processes starting together on a new directory in, and the directory survives the losers', async () => {
    const directory = join(temporaryDirectory(), 'data');
    const starters = Array.from({ length: 3 }, () => {
      const child = spawn(process.execPath, [holderScript, directory, 'hold'], { stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(child);
      return firstLineOrExit(child);
    });
    const outcomes = (await Promise.all(starters)).map((line) => JSON.parse(line) as { ready?: boolean; code?: string; id?: string });
    expect(outcomes.filter((outcome) => outcome.ready)).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.code === 'DATABASE_LOCKED')).toHaveLength(2);

    for (const child of children.splice(0)) child.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const reopened = await openTestStore({ database: `pglite://${directory}` });
    stores.push(reopened);
    const winner = outcomes.find((outcome) => outcome.ready);
    expect((await reopened.memories.findById(tenant, winner?.id ?? ''))?.content).toBe('written before the kill');
  });

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
    await expectCode(openTestStore({ database: `pglite://${directory}` }), 'DATABASE_LOCKED');
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
