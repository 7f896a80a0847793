import { isMemsvcError, type MemsvcError } from '@memsvc/core';
import { ManualClock, ManualTimers } from '@memsvc/core/testing';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PoolAdmission, type ReleasableClient } from '../src/connection/pool-admission.js';
import { openPostgresPool } from '../src/connection/postgres-pool.js';

const pgvectorTestUrl = inject('pgvectorTestUrl');

/** How a promise ended, captured at once so a rejection is never unhandled while a test steps time. */
type Outcome<T> = { readonly value: T } | { readonly error: unknown };

function outcomeOf<T>(promise: Promise<T>): Promise<Outcome<T>> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

function errorOf(outcome: Outcome<unknown>): MemsvcError {
  if (!('error' in outcome)) throw new Error('expected the call to fail, and it succeeded');
  if (!isMemsvcError(outcome.error)) throw new Error(`expected a MemsvcError, got ${String(outcome.error)}`);
  return outcome.error;
}

/** The driver's own code of a failure (a SQLSTATE or a socket error's code). */
function driverCodeOf(outcome: Outcome<unknown>): unknown {
  return 'error' in outcome ? (outcome.error as { code?: unknown }).code : 'succeeded';
}

function clientOf(outcome: Outcome<ReleasableClient>): ReleasableClient {
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}

async function backendPid(client: ReleasableClient): Promise<number> {
  const result = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid', []);
  return result.rows[0]?.pid ?? -1;
}

const suite = pgvectorTestUrl ? describe : describe.skip;
const title = pgvectorTestUrl
  ? 'pool admission on PostgreSQL'
  : 'pool admission on PostgreSQL (skipped: no real PostgreSQL — run tooling/scripts/pg-local.sh or set PGVECTOR_TEST_URL)';

suite(title, () => {
  const url = pgvectorTestUrl ?? 'postgres://unavailable';
  const pools: pg.Pool[] = [];
  const held = new Set<ReleasableClient>();

  afterEach(async () => {
    // A failed test may leave clients checked out; pg's end() would wait for them forever.
    for (const client of held) client.release(true);
    held.clear();
    await Promise.all(pools.splice(0).map((pool) => (pool.ending ? undefined : pool.end())));
  });

  function admitted(maxConnections: number, options: { queueTimeoutMs?: number; url?: string } = {}) {
    const clock = new ManualClock();
    const timers = new ManualTimers(clock);
    const pool = new pg.Pool({ connectionString: options.url ?? url, max: maxConnections, connectionTimeoutMillis: 5_000 });
    pools.push(pool);
    const admission = new PoolAdmission(pool, { maxConnections, queueTimeoutMs: options.queueTimeoutMs ?? 1_000, timers });
    return { pool, admission, timers };
  }

  async function hold(admission: PoolAdmission, count: number): Promise<ReleasableClient[]> {
    const clients: ReleasableClient[] = [];
    for (let i = 0; i < count; i++) clients.push(await admission.connect());
    for (const client of clients) held.add(client);
    return clients;
  }

  function giveBack(client: ReleasableClient, destroy?: Error): void {
    held.delete(client);
    client.release(destroy);
  }

  it('serves more concurrent callers than connections when they fit in the wait bound, on at most max connections', async () => {
    const { pool, admission } = admitted(2);
    let peak = 0;
    const pids = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const client = await admission.connect();
        peak = Math.max(peak, admission.admitted, pool.totalCount);
        try {
          await client.query('SELECT pg_sleep(0.02)', []);
          return await backendPid(client);
        } finally {
          client.release();
        }
      }),
    );
    expect(pids).toHaveLength(12);
    expect(new Set(pids).size).toBeLessThanOrEqual(2);
    expect(peak).toBeLessThanOrEqual(2);
    expect(admission.admitted).toBe(0);
    expect(admission.waiting).toBe(0);
  });

  it("is the pool of Kysely's PostgresDialect, which sets each connection up once however often it is reused", async () => {
    const { admission } = admitted(2);
    let setUps = 0;
    const db = new Kysely<Record<string, never>>({
      dialect: new PostgresDialect({
        pool: admission,
        onCreateConnection: async () => {
          setUps++;
        },
      }),
    });
    try {
      const rows = await Promise.all(
        Array.from({ length: 10 }, (_, i) => sql<{ n: number }>`SELECT ${i}::int AS n, pg_sleep(0.01)`.execute(db)),
      );
      expect(rows.map((result) => result.rows[0]?.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(setUps).toBe(2);
    } finally {
      await db.destroy();
    }
  });

  it('refuses a call that waited past the bound with a retryable STORAGE_UNAVAILABLE; later waiters keep their place', async () => {
    const { admission, timers } = admitted(2, { queueTimeoutMs: 1_000 });
    const [first, second] = await hold(admission, 2);
    const early = outcomeOf(admission.connect());
    timers.advance(500);
    const late = outcomeOf(admission.connect());
    expect(admission.waiting).toBe(2);

    timers.advance(499);
    expect(admission.waiting).toBe(2);
    timers.advance(1);
    const error = errorOf(await early);
    expect(error.code).toBe('STORAGE_UNAVAILABLE');
    expect(error.message).toBe('the database is busy: 2 calls were waiting for one of its 2 connections, this one for 1 s; try again');
    expect(error.data).toEqual({ retryable: true, waiting: 2, maxConnections: 2, waitedMs: 1_000 });
    expect(admission.waiting).toBe(1);

    giveBack(first as ReleasableClient);
    const next = clientOf(await late);
    held.add(next);
    expect(await backendPid(next)).toBeGreaterThan(0);
    timers.advance(10_000); // its timer was cleared when it was admitted
    giveBack(next);
    giveBack(second as ReleasableClient);
    expect(admission.admitted).toBe(0);
  });

  it('serves waiting calls first come, first served', async () => {
    const { admission } = admitted(2);
    const [first, second] = await hold(admission, 2);
    const order: string[] = [];
    const call = (name: string) =>
      admission.connect().then((client) => {
        order.push(name);
        held.add(client);
        return client;
      });
    const a = call('a');
    const b = call('b');
    const c = call('c');
    expect(admission.waiting).toBe(3);

    giveBack(first as ReleasableClient);
    giveBack(second as ReleasableClient);
    const [clientA, clientB] = await Promise.all([a, b]);
    expect(order).toEqual(['a', 'b']);
    expect(admission.waiting).toBe(1);

    giveBack(clientB);
    giveBack(await c);
    giveBack(clientA);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(admission.admitted).toBe(0);
  });

  it('a client released with an error (destroyed) frees its place for the next call, on a new connection', async () => {
    const { pool, admission } = admitted(1);
    const [broken] = (await hold(admission, 1)) as [ReleasableClient];
    const brokenPid = await backendPid(broken);
    const waiter = admission.connect();
    expect(admission.waiting).toBe(1);

    giveBack(broken, new Error('the connection broke'));
    const next = await waiter;
    held.add(next);
    expect(await backendPid(next)).not.toBe(brokenPid);
    expect(pool.totalCount).toBe(1);
    expect(admission.admitted).toBe(1);
    giveBack(next);
    expect(admission.admitted).toBe(0);
  });

  it('a second release of the same checkout does not free a second place', async () => {
    const { admission } = admitted(2);
    const client = await admission.connect();
    client.release();
    expect(() => client.release()).toThrow(/already been released/);
    expect(admission.admitted).toBe(0);
    const again = await admission.connect();
    expect(admission.admitted).toBe(1);
    again.release();
  });

  it('a call whose connection cannot be opened gives its place to the next call', async () => {
    const { admission } = admitted(1, { url: 'postgres://memsvc:secret@127.0.0.1:1/memsvc' });
    const first = outcomeOf(admission.connect());
    const second = outcomeOf(admission.connect());
    expect(admission.waiting).toBe(1);
    // The opening failure itself passes through untouched: the read replica's checks classify it.
    expect(driverCodeOf(await first)).toBe('ECONNREFUSED');
    expect(driverCodeOf(await second)).toBe('ECONNREFUSED');
    expect(admission.admitted).toBe(0);
  });

  it('end() refuses the waiting calls at once, ends the pool once held clients return, and refuses later calls', async () => {
    const { pool, admission } = admitted(2);
    const [first, second] = await hold(admission, 2);
    const waiters = [outcomeOf(admission.connect()), outcomeOf(admission.connect())];

    const ended = outcomeOf(admission.end());
    for (const waiter of waiters) {
      const error = errorOf(await waiter);
      expect(error.code).toBe('STORAGE_UNAVAILABLE');
      expect(error.message).toMatch(/pool is closing/);
      expect(error.data).toEqual({ retryable: true });
    }
    expect(pool.ended).toBe(false);

    giveBack(first as ReleasableClient);
    giveBack(second as ReleasableClient);
    expect(await ended).toEqual({ value: undefined });
    expect(pool.ended).toBe(true);
    expect(errorOf(await outcomeOf(admission.connect())).code).toBe('STORAGE_UNAVAILABLE');
  });

  it('openPostgresPool admits calls past maxConnections and bounds their wait by queueTimeoutMs', async () => {
    // Real timers, a 50 ms bound: this checks the wiring; the steps of time are tested above.
    const admission = await openPostgresPool(url, { maxConnections: 1, queueTimeoutMs: 50, applicationName: 'memsvc-pool-admission-test' });
    try {
      const [client] = (await hold(admission, 1)) as [ReleasableClient];
      const refused = errorOf(await outcomeOf(admission.connect()));
      expect(refused.code).toBe('STORAGE_UNAVAILABLE');
      expect(refused.message).toMatch(/1 call was waiting for one of its 1 connections, this one for 0.05 s; try again/);

      const queued = admission.connect();
      giveBack(client);
      const next = await queued;
      expect(await backendPid(next)).toBeGreaterThan(0);
      next.release();
    } finally {
      await admission.end();
    }
  });
});
