import { chmodSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { setImmediate as nextLoopTurn } from 'node:timers/promises';
import type { PGlite } from '@electric-sql/pglite';

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
  started: boolean;
  closed: boolean;
}

interface Unit {
  readonly client: Client;
  readonly bytes: Uint8Array;
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
 */
export async function servePglite(pglite: PGlite, path: string): Promise<PgliteSocketHost> {
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

  const receive = (client: Client, data: Buffer) => {
    client.buffered = client.buffered.length === 0 ? data : Buffer.concat([client.buffered, data]);
    for (;;) {
      const { buffered } = client;
      if (!client.started) {
        if (buffered.length < 8) return;
        const length = buffered.readInt32BE(0);
        const code = buffered.readInt32BE(4);
        if (buffered.length < length) return;
        client.buffered = buffered.subarray(length);
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
        queue.push({ client, bytes: buffered.subarray(0, length) });
        pump();
        continue;
      }
      if (buffered.length < 5) return;
      const length = 1 + buffered.readInt32BE(1);
      if (buffered.length < length) return;
      const type = buffered[0] ?? 0;
      const message = buffered.subarray(0, length);
      client.buffered = buffered.subarray(length);
      if (type === TERMINATE) {
        client.socket.end();
        drop(client);
        return;
      }
      client.pending.push(message);
      if (ENDS_A_UNIT.has(type)) {
        queue.push({ client, bytes: Buffer.concat(client.pending) });
        client.pending = [];
        pump();
      }
    }
  };

  const server: Server = createServer((socket) => {
    const client: Client = { id: nextId++, socket, buffered: Buffer.alloc(0), pending: [], started: false, closed: false };
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
