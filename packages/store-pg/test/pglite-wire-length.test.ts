import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { servePglite } from '../src/connection/pglite-socket-host.js';
import { temporaryDirectory } from './support/each-engine.js';

const holderScript = fileURLToPath(new URL('./fixtures/hold-pglite.mjs', import.meta.url));
/** How long the host may take to drop a connection that sent a malformed message. */
const DROP_WITHIN_MS = 3_000;

/** A start-up message (protocol 3.0) whose length field says `length` (the true size when omitted). */
function startup(length?: number): Buffer {
  const body = Buffer.from('user\0postgres\0database\0postgres\0\0');
  const message = Buffer.alloc(8 + body.length);
  message.writeInt32BE(length ?? message.length, 0);
  message.writeInt32BE(196608, 4);
  body.copy(message, 8);
  return message;
}

/** A simple Query message header whose length field says `length`, and `extra` bytes after it. */
function query(length: number, extra = 0): Buffer {
  const message = Buffer.alloc(5 + extra, 0x20);
  message[0] = 'Q'.charCodeAt(0);
  message.writeInt32BE(length, 1);
  return message;
}

/** A raw connection to the socket, started (ReadyForQuery received) unless `started` is false. */
async function rawClient(socketPath: string, started = true): Promise<Socket> {
  const socket = connect(socketPath);
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  if (!started) return socket;
  const ready = new Promise<void>((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (data: Buffer) => {
      received = Buffer.concat([received, data]);
      // ReadyForQuery: 'Z', length 5, the transaction status.
      if (received.includes(Buffer.from([0x5a, 0, 0, 0, 5]))) {
        socket.off('data', onData);
        resolve();
      }
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error('the host closed the connection during start-up')));
  });
  socket.write(startup());
  await bounded(ready, 10_000, 'no ReadyForQuery after a valid start-up');
  return socket;
}

/** Whether the host closes the connection within DROP_WITHIN_MS of `message` being sent. */
function droppedAfter(socket: Socket, message: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), DROP_WITHIN_MS);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
    socket.write(message);
  });
}

function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const newline = buffer.indexOf('\n');
      if (newline >= 0) resolve(buffer.slice(0, newline));
    });
    child.once('exit', (code) => reject(new Error(`the host exited with ${code} before reporting`)));
  });
}

// A malformed message on the shared directory's socket (issue 51, finding 6): the host is
// another process here, as it is for the agents sharing a directory, so a host stuck in a
// loop fails the test (its queries time out) instead of stalling the test runner.
describe('a malformed wire message on a shared directory', () => {
  const children: ChildProcess[] = [];
  const sockets: Socket[] = [];
  const clients: pg.Client[] = [];
  afterEach(async () => {
    // The host first: a client's end waits for an answer a stalled host never gives.
    for (const child of children.splice(0)) child.kill('SIGKILL');
    for (const socket of sockets.splice(0)) socket.destroy();
    await Promise.all(clients.splice(0).map((client) => client.end().catch(() => undefined)));
  });

  const hostIn = async (directory: string) => {
    const host = spawn(process.execPath, [holderScript, directory, 'hold'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(host);
    let warnings = '';
    host.stderr?.on('data', (chunk: Buffer) => {
      warnings += chunk.toString();
    });
    expect(JSON.parse(await firstLine(host))).toMatchObject({ ready: true, host: true });
    return { socketPath: join(directory, '.s.PGSQL.5432'), warnings: () => warnings };
  };

  it(
    verifies(
      'R-PGLITE-WIRE-LENGTH',
      'drops a connection whose message length is -1, 0, over the cap, or a start-up under 8 bytes, and keeps serving the others',
    ),
    async () => {
      const directory = join(temporaryDirectory(), 'data');
      const { socketPath, warnings } = await hostIn(directory);
      const other = new pg.Client({ host: directory, port: 5432, user: 'postgres', database: 'postgres' });
      other.on('error', () => undefined);
      clients.push(other);
      await other.connect();

      const cases: [string, Buffer, boolean][] = [
        ['a Query whose length is -1', query(-1), true],
        ['a Query whose length is 0', query(0), true],
        ['a Query whose length is 2^31-1', query(0x7fffffff, 64 * 1024), true],
        ['a start-up message whose length is 4', startup(4), false],
        ['a start-up message whose length is -1', startup(-1), false],
        ['a start-up message whose length is 2^31-1', startup(0x7fffffff), false],
      ];
      for (const [what, message, started] of cases) {
        const socket = await rawClient(socketPath, started);
        sockets.push(socket);
        expect(await droppedAfter(socket, message), `the host dropped the connection that sent ${what}`).toBe(true);
        const answer = await bounded(other.query<{ n: number }>('SELECT 41 + 1 AS n'), 5_000, `no answer after ${what}`);
        expect(answer.rows[0]?.n).toBe(42);
      }
      // Each drop is logged with its reason, never the bytes that came with it.
      expect(warnings()).toMatch(/dropped connection \d+: a message's length field said -1 \(allowed: 4 to \d+\)/);
      expect(warnings()).toMatch(/dropped connection \d+: a start-up message's length field said 2147483647/);
    },
  );
});

describe('what one connection may make the shared host hold', () => {
  it(
    verifies(
      'R-PGLITE-WIRE-LENGTH',
      'drops a connection whose messages waiting for their Sync outgrow the bound, and keeps serving the others',
    ),
    async () => {
      const pglite = await PGlite.create();
      const warnings: string[] = [];
      const host = await servePglite(pglite, join(temporaryDirectory(), '.s.PGSQL.5432'), {
        maxHeldBytes: 64 * 1024,
        onWarning: (message) => warnings.push(message),
      });
      const other = new pg.Client({ host: join(host.path, '..'), port: 5432, user: 'postgres', database: 'postgres' });
      other.on('error', () => undefined);
      const socket = await rawClient(host.path);
      try {
        await other.connect();
        // Parse messages of 1 KiB each and never a Sync: each is well formed, together too many.
        const parse = Buffer.alloc(1 + 1024, 0x20);
        parse[0] = 'P'.charCodeAt(0);
        parse.writeInt32BE(1024, 1);
        expect(await droppedAfter(socket, Buffer.concat(Array.from({ length: 80 }, () => parse)))).toBe(true);
        expect(warnings).toEqual([
          expect.stringMatching(/dropped connection \d+: its messages waiting to be run would exceed 65536 bytes/),
        ]);
        expect((await bounded(other.query<{ n: number }>('SELECT 41 + 1 AS n'), 5_000, 'no answer')).rows[0]?.n).toBe(42);
      } finally {
        socket.destroy();
        await other.end().catch(() => undefined);
        await host.close();
        await pglite.close();
      }
    },
  );
});
