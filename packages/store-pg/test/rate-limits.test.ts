import { type RateLimitBucket, type RateLimitDecision, rateLimitBuckets } from '@memsvc/access';
import type { MemsvcConfig } from '@memsvc/config';
import { ManualClock } from '@memsvc/core/testing';
import { sql } from 'kysely';
import { beforeEach, expect, it } from 'vitest';
import type { MemsvcStore } from '../src/index.js';
import { failureOf } from './support/code-of.js';
import { describeEachEngine } from './support/each-engine.js';
import { openTestStore } from './support/open-test-store.js';
import { useSuiteStore } from './support/suite-store.js';

const START = '2026-05-01T09:00:20.000Z';
const SECOND = 1000;

/**
 * Opens `count` pooled connections before a race: without it, on PostgreSQL the first racer runs
 * alone while the others wait for their connections to open, and a racy store would pass.
 */
async function openConnections(store: MemsvcStore, count: number): Promise<void> {
  await Promise.all(Array.from({ length: count }, () => sql`SELECT pg_sleep(0.02)`.execute(store.connection.db)));
}

const user = (id: string, limit: number, windowSeconds = 60): RateLimitBucket => ({
  kind: 'user',
  key: `user:${id}`,
  limit,
  windowSeconds,
});
const org = (id: string, limit: number, windowSeconds = 60): RateLimitBucket => ({ kind: 'org', key: `org:${id}`, limit, windowSeconds });
const ADMITTED = { admitted: true, retryAfterSeconds: 0 };

describeEachEngine('rate limits', (engine) => {
  const clock = new ManualClock(START);
  const opened = useSuiteStore(engine, clock, { tables: ['rate_limit_counters'], start: START });
  let store: MemsvcStore;
  beforeEach(() => {
    store = opened.current;
  });

  const take = (buckets: readonly RateLimitBucket[]) => store.rateLimits.take(buckets, clock.now());
  const takeTimes = async (times: number, buckets: readonly RateLimitBucket[]) => {
    const decisions: RateLimitDecision[] = [];
    for (let i = 0; i < times; i++) decisions.push(await take(buckets));
    return decisions;
  };
  /** Every counter, as `bucket@HH:MM:SS → count`. */
  const counters = async () =>
    Object.fromEntries(
      (await store.connection.db.selectFrom('rate_limit_counters').selectAll().orderBy('bucket').orderBy('window_start').execute()).map(
        (row) => [`${row.bucket}@${row.window_start.toISOString().slice(11, 19)}`, row.count],
      ),
    );

  it('keeps its counters in an unlogged table: no WAL flush per limited call (migration 0010)', async () => {
    const persistence = await sql<{ relpersistence: string }>`
      SELECT relpersistence FROM pg_class WHERE relname = 'rate_limit_counters'`.execute(store.connection.db);
    expect(persistence.rows[0]?.relpersistence).toBe('u');
  });

  it('RATE-TAKE: admits exactly `limit` calls in a window, then refuses until the window ends', async () => {
    expect(await takeTimes(3, [user('alice', 3)])).toEqual([ADMITTED, ADMITTED, ADMITTED]);
    expect(await take([user('alice', 3)])).toEqual({ admitted: false, retryAfterSeconds: 40, refusedBy: 'user' });
    clock.advance(39.5 * SECOND);
    expect(await take([user('alice', 3)])).toEqual({ admitted: false, retryAfterSeconds: 1, refusedBy: 'user' });
    // Refusals are not counted: the counter stays at the limit, and its row lapses with the window.
    const row = await store.connection.db.selectFrom('rate_limit_counters').selectAll().executeTakeFirstOrThrow();
    expect(row).toEqual({
      bucket: 'user:alice',
      window_start: new Date('2026-05-01T09:00:00.000Z'),
      count: 3,
      expires_at: new Date('2026-05-01T09:01:00.000Z'),
    });

    clock.advance(0.5 * SECOND);
    expect(await takeTimes(3, [user('alice', 3)])).toEqual([ADMITTED, ADMITTED, ADMITTED]);
    expect((await take([user('alice', 3)])).admitted).toBe(false);
    // Another user has a budget of their own; a limit of 1 admits one call.
    expect(await takeTimes(2, [user('bob', 1)])).toEqual([ADMITTED, { admitted: false, retryAfterSeconds: 60, refusedBy: 'user' }]);
    expect(await counters()).toEqual({ 'user:alice@09:00:00': 3, 'user:alice@09:01:00': 3, 'user:bob@09:01:00': 1 });
  });

  it('RATE-TAKE: an organization aggregates its users, and a call one bucket refuses costs the others nothing', async () => {
    const alice = [user('alice', 3), org('acme', 4)];
    const bob = [user('bob', 3), org('acme', 4)];
    expect(await takeTimes(3, alice)).toEqual([ADMITTED, ADMITTED, ADMITTED]);
    // Alice's own limit refuses her fourth call; the organization's counter does not move.
    expect(await take(alice)).toEqual({ admitted: false, retryAfterSeconds: 40, refusedBy: 'user' });
    expect(await take(bob)).toEqual(ADMITTED);
    // The organization is full: bob is refused though he has room, and his room is kept.
    expect(await takeTimes(2, bob)).toEqual([
      { admitted: false, retryAfterSeconds: 40, refusedBy: 'org' },
      { admitted: false, retryAfterSeconds: 40, refusedBy: 'org' },
    ]);
    expect(await counters()).toEqual({ 'org:acme@09:00:00': 4, 'user:alice@09:00:00': 3, 'user:bob@09:00:00': 1 });
    clock.set('2026-05-01T09:01:00.000Z');
    expect(await takeTimes(3, bob)).toEqual([ADMITTED, ADMITTED, ADMITTED]);
  });

  it('RATE-TAKE, RATE-BUCKETS: a tool with an override has a budget of its own, on top of the general ones', async () => {
    const settings: MemsvcConfig['rateLimit'] = {
      enabled: true,
      windowSeconds: 60,
      userPerWindow: 5,
      orgPerWindow: 100,
      ipPerWindow: 2,
      ipv6Prefix: 64,
      toolOverrides: { memory_recall: { limit: 2, windowSeconds: 600 } },
    };
    const alice = { userId: 'alice', organizationId: 'acme' };
    const recall = rateLimitBuckets(alice, 'memory_recall', settings);
    const store_ = rateLimitBuckets(alice, 'memory_store', settings);
    expect(await takeTimes(2, recall)).toEqual([ADMITTED, ADMITTED]);
    // 09:00:20 in a ten-minute window that began at 09:00.
    expect(await take(recall)).toEqual({ admitted: false, retryAfterSeconds: 580, refusedBy: 'tool' });
    expect(await takeTimes(4, store_)).toEqual([
      ADMITTED,
      ADMITTED,
      ADMITTED,
      { admitted: false, retryAfterSeconds: 40, refusedBy: 'user' },
    ]);
    expect(await counters()).toEqual({
      'org:acme@09:00:00': 5,
      'tool:memory_recall:user:alice@09:00:00': 2,
      'user:alice@09:00:00': 5,
    });
    // A new general window does not reopen the tool's: that one lasts ten minutes.
    clock.set('2026-05-01T09:01:00.000Z');
    expect(await take(recall)).toEqual({ admitted: false, retryAfterSeconds: 540, refusedBy: 'tool' });
    expect(await take(store_)).toEqual(ADMITTED);

    // A caller that is not authenticated is counted by address, with the tool's budget per address.
    const anonymous = rateLimitBuckets({ ip: '203.0.113.7' }, 'memory_recall', settings);
    expect(await takeTimes(2, anonymous)).toEqual([ADMITTED, ADMITTED]);
    // Both the address and the tool are full: the later of their windows is the time to retry.
    expect(await take(anonymous)).toEqual({ admitted: false, retryAfterSeconds: 540, refusedBy: 'tool' });
    expect(await take(rateLimitBuckets({ ip: '203.0.113.7' }, 'memory_store', settings))).toEqual({
      admitted: false,
      retryAfterSeconds: 60,
      refusedBy: 'ip',
    });
    expect(await take(rateLimitBuckets({ ip: '203.0.113.8' }, 'memory_recall', settings))).toEqual(ADMITTED);
  });

  it('RATE-TAKE: a key that is long or not printable ASCII is stored as its SHA-256, and still counts on its own', async () => {
    const long = { kind: 'ip', key: `ip:${'1'.repeat(400)}`, limit: 1, windowSeconds: 60 } as const;
    const longer = { ...long, key: `${long.key}2` };
    const nul = { ...long, key: 'ip:\u0000' };
    expect(await take([long])).toEqual(ADMITTED);
    expect((await take([long])).admitted).toBe(false);
    expect(await take([longer])).toEqual(ADMITTED);
    expect(await take([nul])).toEqual(ADMITTED);
    expect(await take([user('x'.repeat(295), 1)])).toEqual(ADMITTED);
    const keys = Object.keys(await counters()).map((key) => key.split('@')[0] ?? '');
    expect(keys.filter((key) => /^sha256:[0-9a-f]{64}$/.test(key))).toHaveLength(3);
    expect(keys).toContain(`user:${'x'.repeat(295)}`);
  });

  it('RATE-RACE: concurrent calls never admit more than the limit (one pool on PGlite, two replicas on PostgreSQL)', async () => {
    // Three users of one organization race: the organization (25) is the limit that binds, so
    // the refused calls' user increments must also be taken back under contention.
    const replicas = [store];
    if (engine.supportsSecondConnection) replicas.push(await openTestStore({ database: opened.url, clock, pool: { maxConnections: 10 } }));
    try {
      for (const replica of replicas) await openConnections(replica, 8);
      const decisions = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          (replicas[i % replicas.length] ?? store).rateLimits.take([user(`u${i % 3}`, 100), org('acme', 25)], clock.now()),
        ),
      );
      expect(decisions.filter((decision) => decision.admitted)).toHaveLength(25);
      expect(decisions.filter((decision) => !decision.admitted).every((decision) => decision.refusedBy === 'org')).toBe(true);
      const rows = await counters();
      expect(rows['org:acme@09:00:00']).toBe(25);
      expect((rows['user:u0@09:00:00'] ?? 0) + (rows['user:u1@09:00:00'] ?? 0) + (rows['user:u2@09:00:00'] ?? 0)).toBe(25);
    } finally {
      for (const replica of replicas.slice(1)) await replica.close();
    }
  });

  it('RATE-RACE: concurrent calls on one bucket admit exactly the limit', async () => {
    await openConnections(store, 8);
    const decisions = await Promise.all(Array.from({ length: 60 }, () => take([user('alice', 25)])));
    expect(decisions.filter((decision) => decision.admitted)).toHaveLength(25);
    expect(await counters()).toEqual({ 'user:alice@09:00:00': 25 });
  });

  it('the auth-store sweep deletes lapsed counters and keeps the current windows', async () => {
    await take([user('alice', 5), org('acme', 5, 3600)]);
    clock.set('2026-05-01T09:01:00.000Z');
    await take([user('alice', 5)]);
    // At 09:01 the 09:00 minute has lapsed (expiry at its end, inclusive); the hour has not.
    expect(await store.lifecycle.sweepAuthStore(clock.now())).toEqual({ sessions: 0, oauthStates: 0, deniedJtis: 0, rateLimitCounters: 1 });
    expect(await counters()).toEqual({ 'org:acme@09:00:00': 1, 'user:alice@09:01:00': 1 });
    expect(await take([user('alice', 2), org('acme', 2, 3600)])).toEqual(ADMITTED);
    expect(await take([user('alice', 5), org('acme', 2, 3600)])).toEqual({ admitted: false, retryAfterSeconds: 3540, refusedBy: 'org' });
  });

  it('RATE-INPUT: refuses a bad bucket, a repeated key or a bad instant with INVALID_INPUT naming the field, and counts nothing', async () => {
    const good = user('alice', 5);
    const cases: [RateLimitBucket[], string][] = [
      [[good, { ...org('acme', 5), limit: 0 }], 'limit'],
      [[good, { ...org('acme', 5), limit: -3 }], 'limit'],
      [[good, { ...org('acme', 5), limit: 2.5 }], 'limit'],
      [[good, { ...org('acme', 5), windowSeconds: 0 }], 'windowSeconds'],
      [[good, { ...org('acme', 5), windowSeconds: -60 }], 'windowSeconds'],
      [[{ ...good, key: '' }], 'key'],
      [[good, { ...good, kind: 'org' }], 'key'],
    ];
    for (const [buckets, field] of cases) {
      expect(await failureOf(take(buckets)), JSON.stringify(buckets)).toEqual(['INVALID_INPUT', field]);
    }
    expect(await failureOf(store.rateLimits.take([good], new Date(Number.NaN)))).toEqual(['INVALID_INPUT', 'now']);
    expect(await counters()).toEqual({});
    // No buckets: nothing to limit, nothing written.
    expect(await take([])).toEqual(ADMITTED);
    expect(await counters()).toEqual({});
  });
});
