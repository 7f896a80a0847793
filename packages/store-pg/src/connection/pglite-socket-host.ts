import { chmodSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { setImmediate as nextLoopTurn } from 'node:timers/promises';
import type { PGlite } from '@electric-sql/pglite';
import { MAX_MESSAGE_BYTES, messageFrame, startupFrame } from './pglite-wire-frames.js';

/** The request codes a client may send instead of a startup message (PostgreSQL protocol 3.0). */
const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
/** Messages after which PostgreSQL answers with ReadyForQuery: a unit of work ends there. */
const ENDS_A_UNIT = new Set(['S'.charCodeAt(0), 'Q'.charCodeAt(0)]);
const TERMINATE = 'X'.charCodeAt(0);

interface Client {
  readonly id: number;
  readonly socket: Socket;
  /** Bytes received and not yet cut into messages. */
  buffered: Buffer;
  /** Whole messages received since the last unit ended. */
  pending: Buffer[];
  /** Their bytes. */
  pendingBytes: number;
  /**
   * Bytes of its units waiting in the queue: with the pending ones and the message in progress
   * bounded by MAX_MESSAGE_BYTES, so a connection cannot make the host hold more than that.
   */
  queuedBytes: number;
  started: boolean;
  closed: boolean;
}

interface Unit {
  readonly client: Client;
  readonly bytes: Uint8Array;
}

/** What a host tells its operator: a connection dropped for malformed framing (never its content). */
export interface PgliteSocketHostOptions {
  /** Default: a process warning (printed on stderr, never stdout: stdout is an MCP channel). */
  readonly onWarning?: (message: string) => void;
  /** What one connection may make the host hold (default MAX_MESSAGE_BYTES); tests lower it. */
  readonly maxHeldBytes?: number;
}

/** The socket server a host runs for its PGlite database (see servePglite). */
export interface PgliteSocketHost {
  readonly path: string;
  /** Stops accepting, ends every connection (a transaction left open is rolled back) and waits for the unit in progress. */
  close(): Promise<void>;
}

/**
 * Serves one PGlite database to many node-postgres connections over a Unix socket (mode 0600).
 * PGlite is a single PostgreSQL session, so connections take turns, a **unit** at a time: the
 * messages up to and including a Sync (the extended protocol's Parse, Bind, Describe, Execute)
 * or a simple Query — never one message at a time, which would let another connection's Parse
 * replace this one's unnamed statement between its Parse and its Bind. While the session is in a
 * transaction, only the connection that opened it is served; if that connection goes away, its
 * transaction is rolled back. (`@electric-sql/pglite-socket` 0.2 queues single messages and was
 * measured to fail this way: "unnamed prepared statement does not exist" with three writers.)
 * Between units the event loop turns, so the host's own requests are served in between.
 *
 * A connection whose framing is impossible — a length field under the minimum or over
 * PostgreSQL's own caps (pglite-wire-frames.ts), or more bytes waiting to be run than one
 * message may have — is dropped with a warning and the others are served on (issue 51: a length of −1 looped for ever
 * and stalled every process sharing the directory).
 */
export async function servePglite(pglite: PGlite, path: string, options: PgliteSocketHostOptions = {}): Promise<PgliteSocketHost> {
  const maxHeldBytes = options.maxHeldBytes ?? MAX_MESSAGE_BYTES;
  const warn = options.onWarning ?? ((message: string) => process.emitWarning(message, { code: 'MEMSVC_PGLITE_SOCKET' }));
  const queue: Unit[] = [];
  const clients = new Set<Client>();
  let nextId = 1;
  /** The connection whose transaction the session is in. */
  let transactionOwner: Client | undefined;
  let running: Promise<void> | undefined;

  const pump = () => {
    running ??= drain().finally(() => {
      running = undefined;
      if (queue.some(runnable)) pump();
    });
  };
  const runnable = (unit: Unit) => transactionOwner === undefined || unit.client === transactionOwner;

  async function drain(): Promise<void> {
    for (;;) {
      const index = queue.findIndex(runnable);
      if (index < 0) return;
      const [unit] = queue.splice(index, 1) as [Unit];
      unit.client.queuedBytes -= unit.bytes.length;
      if (unit.client.closed) continue;
      await pglite.runExclusive(() =>
        pglite.execProtocolRawStream(unit.bytes, {
          onRawData: (data) => {
            if (!unit.client.closed && unit.client.socket.writable) unit.client.socket.write(data);
          },
        }),
      );
      transactionOwner = pglite.isInTransaction() ? unit.client : undefined;
      // A connection that left while its transaction was open leaves nothing behind.
      if (transactionOwner?.closed) await rollback();
      await nextLoopTurn();
    }
  }

  async function rollback(): Promise<void> {
    // exec takes PGlite's own lock (runExclusive around it would wait for itself).
    await pglite.exec('ROLLBACK');
    transactionOwner = undefined;
  }

  const drop = (client: Client) => {
    if (client.closed) return;
    client.closed = true;
    clients.delete(client);
    for (let i = queue.length - 1; i >= 0; i--) if (queue[i]?.client === client) queue.splice(i, 1);
    if (transactionOwner === client && !running) {
      running = rollback().finally(() => {
        running = undefined;
        pump();
      });
    }
  };

  /** Ends a connection whose bytes cannot be PostgreSQL messages; only the reason is logged. */
  const refuse = (client: Client, reason: string) => {
    warn(`the shared PGlite host dropped connection ${client.id}: ${reason}`);
    client.socket.destroy();
    drop(client);
  };

  const receive = (client: Client, data: Buffer) => {
    if (client.closed) return;
    client.buffered = client.buffered.length === 0 ? data : Buffer.concat([client.buffered, data]);
    for (;;) {
      const { buffered } = client;
      if (!client.started) {
        const frame = startupFrame(buffered);
        if (frame !== 'partial' && 'invalid' in frame) {
          refuse(client, frame.invalid);
          return;
        }
        if (frame === 'partial' || !frame.whole) return;
        const code = buffered.readInt32BE(4);
        client.buffered = buffered.subarray(frame.size);
        if (code === SSL_REQUEST || code === GSS_REQUEST) {
          client.socket.write('N'); // no encryption on a local socket
          continue;
        }
        if (code === CANCEL_REQUEST || code !== PROTOCOL_3) {
          client.socket.end();
          drop(client);
          return;
        }
        client.started = true;
        queue.push({ client, bytes: buffered.subarray(0, frame.size) });
        client.queuedBytes += frame.size;
        pump();
        continue;
      }
      const frame = messageFrame(buffered);
      if (frame === 'partial') return;
      if ('invalid' in frame) {
        refuse(client, frame.invalid);
        return;
      }
      const { size } = frame;
      // Checked on the announced size, so the body of a message that would not fit is never buffered.
      if (client.queuedBytes + client.pendingBytes + size > maxHeldBytes) {
        refuse(client, `its messages waiting to be run would exceed ${maxHeldBytes} bytes`);
        return;
      }
      if (!frame.whole) return;
      const type = buffered[0] ?? 0;
      const message = buffered.subarray(0, size);
      client.buffered = buffered.subarray(size);
      if (type === TERMINATE) {
        client.socket.end();
        drop(client);
        return;
      }
      client.pending.push(message);
      client.pendingBytes += size;
      if (ENDS_A_UNIT.has(type)) {
        queue.push({ client, bytes: Buffer.concat(client.pending) });
        client.queuedBytes += client.pendingBytes;
        client.pending = [];
        client.pendingBytes = 0;
        pump();
      }
    }
  };

  const server: Server = createServer((socket) => {
    const client: Client = {
      id: nextId++,
      socket,
      buffered: Buffer.alloc(0),
      pending: [],
      pendingBytes: 0,
      queuedBytes: 0,
      started: false,
      closed: false,
    };
    clients.add(client);
    socket.on('data', (data) => receive(client, data));
    socket.on('error', () => drop(client));
    socket.on('close', () => drop(client));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(path, 0o600);

  return {
    path,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const client of [...clients]) {
        client.socket.destroy();
        drop(client);
      }
      await running;
      if (pglite.isInTransaction()) await rollback().catch(() => undefined);
      await closed;
    },
  };
}
