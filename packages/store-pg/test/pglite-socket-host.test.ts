import { statSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { type PgliteSocketHost, servePglite } from '../src/connection/pglite-socket-host.js';
import { temporaryDirectory } from './support/each-engine.js';

// The host's side of a shared PGlite directory (issue 40): many node-postgres connections, one
// PGlite session. These are the failures a message-at-a-time multiplexer has.
describe('serving one PGlite to many connections', () => {
  let pglite: PGlite;
  let host: PgliteSocketHost;
  let directory: string;
  const clients: pg.Client[] = [];

  const connect = async () => {
    const client = new pg.Client({ host: directory, port: 5432, user: 'postgres', database: 'postgres' });
    client.on('error', () => undefined);
    await client.connect();
    clients.push(client);
    return client;
  };

  beforeEach(async () => {
    pglite = await PGlite.create();
    await pglite.exec('CREATE TABLE t (n int)');
    directory = temporaryDirectory();
    host = await servePglite(pglite, join(directory, '.s.PGSQL.5432'));
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.end().catch(() => undefined)));
    await host.close();
    await pglite.close();
  });

  it(verifies('R-PGLITE-SOCKET-UNITS', 'keeps each parameterised statement whole while three connections send at once'), async () => {
    const three = await Promise.all([connect(), connect(), connect()]);
    const sums = await Promise.all(
      three.flatMap((client, c) =>
        Array.from({ length: 40 }, (_, i) =>
          client.query<{ n: number }>('SELECT $1::int + $2::int AS n', [c * 1000, i]).then((r) => r.rows[0]?.n),
        ),
      ),
    );
    expect(sums).toEqual(three.flatMap((_, c) => Array.from({ length: 40 }, (_, i) => c * 1000 + i)));
  });

  it(verifies('R-PGLITE-SOCKET-UNITS', 'serves only the connection in a transaction until it ends'), async () => {
    const [writer, reader] = await Promise.all([connect(), connect()]);
    await writer.query('BEGIN');
    await writer.query('INSERT INTO t VALUES ($1)', [1]);
    const order: string[] = [];
    const read = reader.query<{ count: string }>('SELECT count(*) FROM t').then((result) => {
      order.push('read');
      return Number(result.rows[0]?.count);
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await writer.query('INSERT INTO t VALUES ($1)', [2]);
    order.push('commit');
    await writer.query('COMMIT');
    expect(await read).toBe(2);
    expect(order).toEqual(['commit', 'read']);
  });

  it(verifies('R-PGLITE-SOCKET-UNITS', 'rolls back the transaction of a connection that goes away, and serves the others'), async () => {
    const [writer, reader] = await Promise.all([connect(), connect()]);
    await writer.query('BEGIN');
    await writer.query('INSERT INTO t VALUES (1)');
    const read = reader.query<{ count: string }>('SELECT count(*) FROM t');
    (writer as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    expect(Number((await read).rows[0]?.count)).toBe(0);
    expect(pglite.isInTransaction()).toBe(false);
  });

  it(verifies('R-PGLITE-SHARED', "the socket is its owner's alone"), () => {
    expect(statSync(host.path).mode & 0o777).toBe(0o600);
  });
});
