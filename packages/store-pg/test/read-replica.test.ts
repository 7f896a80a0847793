import { type CallContext, createMemoryEngine, FUSION_WEIGHTS, type MemoryEngine, toTenantId } from '@memsvc/core';
import { ManualClock, ManualTimers } from '@memsvc/core/testing';
import { LocalEmbedder } from '@memsvc/embeddings';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { queryOne, type StandbyCluster, startStandby, waitForReplay } from '../../../tooling/vitest/replica-cluster.ts';
import { openDatabase } from '../src/connection/open-database.js';
import type { MemsvcStore, ReadRoute, ReplicaEvents } from '../src/index.js';
import { FAILED_READS_BEFORE_PAUSE, FIRST_READ_PAUSE_MS } from '../src/replica/failing-read-pause.js';
import { RecentWrites } from '../src/replica/recent-writes.js';
import { ReplicaMonitor } from '../src/replica/replica-monitor.js';
import { codeOf } from './support/code-of.js';
import { openTestStore } from './support/open-test-store.js';

// Two real clusters from tooling/scripts/pg-local.sh: its primary, and a hot standby of this
// file's own (it is paused, stopped and restarted here), plus a second one that gets promoted.
const pgvectorTestUrl = inject('pgvectorTestUrl');
const own = await startStandby(pgvectorTestUrl, `store-pg-${process.pid}`);
const describeWithStandby = own.ok ? describe : describe.skip;
const skipReason = own.ok ? '' : ` (SKIPPED: ${own.reason})`;

const context = (tenant: string): CallContext => ({ tenant: toTenantId(tenant), actor: { id: `user:${tenant}` } });
const alice = context('alice');
const bob = context('bob');
const embedder = new LocalEmbedder();
const MAX_LAG_MS = 5_000;

/** What the replica told its host. */
class Recorder {
  readonly reads: ReadRoute[] = [];
  readonly warnings: string[] = [];
  readonly recoveries: string[] = [];
  readonly events: ReplicaEvents = {
    onRead: (route) => this.reads.push(route),
    onWarning: (message) => this.warnings.push(message),
    onRecovered: (message) => this.recoveries.push(message),
  };

  /** The routes recorded since the last call. */
  take(): ReadRoute[] {
    return this.reads.splice(0);
  }
}

interface Opened {
  readonly store: MemsvcStore;
  readonly engine: MemoryEngine;
  readonly recorder: Recorder;
  readonly clock: ManualClock;
}

const opened: MemsvcStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

/** A store on the primary with the standby as its read replica; its checks run only when the test calls them. */
async function openWithStandby(
  urls: { primary: string; standby: string },
  options: { maxLagMs?: number; answerTimeoutMs?: number; hostTimers?: boolean; primaryConnections?: number } = {},
): Promise<Opened> {
  const clock = new ManualClock('2026-06-01T09:00:00.000Z');
  const recorder = new Recorder();
  const store = await openTestStore({
    database: urls.primary,
    clock,
    vector: { dimensions: embedder.dimensions, model: embedder.model },
    ...(options.primaryConnections === undefined ? {} : { pool: { maxConnections: options.primaryConnections } }),
    readDatabase: {
      database: urls.standby,
      maxLagMs: options.maxLagMs ?? MAX_LAG_MS,
      events: recorder.events,
      ...(options.hostTimers ? {} : { timers: new ManualTimers(clock) }),
      ...(options.answerTimeoutMs === undefined ? {} : { answerTimeoutMs: options.answerTimeoutMs }),
    },
  });
  opened.push(store);
  const routed = store.readReplica?.memories;
  if (!routed) throw new Error('openStore did not open the read replica');
  // Grants are always read on the primary (a revocation applies at once, whatever the standby shows).
  const engine = createMemoryEngine({
    store: routed,
    embedder,
    clock,
    fusion: FUSION_WEIGHTS.local,
    grants: store.grants,
    erasures: store.erasures,
  });
  return { store, engine, recorder, clock };
}

/** The standby has replayed everything so far and the store has checked it. */
async function caughtUp(opened: Opened, urls: { primary: string; standby: string }): Promise<void> {
  // A check sets a recent writer's barrier at the primary's position as it reads it, and other
  // test files write to the same primary meanwhile; so replay up to a position read after that
  // check, and check again: then the standby has replayed every barrier set.
  for (let round = 0; round < 2; round++) {
    await waitForReplay(urls.primary, urls.standby);
    opened.clock.advance(1_000);
    expect((await opened.store.readReplica?.check())?.state).toBe('ready');
  }
}

const contents = (page: { items: readonly { content: string }[] }) => page.items.map((memory) => memory.content);

describeWithStandby(`read replica: a hot standby serves the read tools${skipReason}`, () => {
  const cluster = own.ok ? own.cluster : (undefined as unknown as StandbyCluster);
  afterAll(async () => {
    if (!own.ok) return;
    await cluster.dropDatabases();
    await cluster.control('destroy');
  });

  it('R-REPLICA-ROUTE: recall, list, audit and links are served by the standby; writes and counted reads by the primary', async () => {
    const urls = await cluster.freshDatabase();
    const opened = await openWithStandby(urls);
    const { engine, recorder, store } = opened;
    const kayak = await engine.create(alice, { tier: 'stm', content: 'The kayak is stored in the garage behind the bikes' });
    await caughtUp(opened, urls);
    recorder.take();

    const recalled = await engine.recall(alice, { query: 'where is the kayak' });
    expect(recalled.results.map((result) => result.memory.id)).toEqual([kayak.memory.id]);
    await store.memories.settle();
    expect(contents(await engine.list(alice, { limit: 10 }))).toEqual(['The kayak is stored in the garage behind the bikes']);
    expect((await engine.audit(alice, kayak.memory.id)).map((entry) => entry.action)).toEqual(['create']);
    expect(await engine.links(alice, kayak.memory.id)).toEqual([]);
    expect(recorder.take()).toEqual(Array(4).fill({ target: 'replica', reason: 'caught-up' }));

    // Recall's access count (written after the answer) and get_memory's (in the statement that
    // reads the row) are writes: a standby would refuse them; the primary has both.
    const read = await engine.get(alice, kayak.memory.id);
    expect(read.accessCount).toBe(2);
    const counted = await queryOne<{ access_count: number }>(urls.primary, 'SELECT access_count FROM memories WHERE id = $1', [
      kayak.memory.id,
    ]);
    expect(counted.access_count).toBe(2);
    expect(recorder.take()).toEqual([]);
    expect(recorder.warnings).toEqual([]);
  });

  it('R-GRANT-END: a revoked grant ends access at the next read, even while the standby has not replayed the revocation', async () => {
    const urls = await cluster.freshDatabase();
    const opened = await openWithStandby(urls);
    const { engine } = opened;
    await engine.create(bob, { tier: 'ltm', content: 'Bob keeps the team notes' });
    const shared = await engine.create(alice, { tier: 'ltm', content: 'The team offsite is in Lisbon', scope: 'team' });
    const grant = await engine.grant(alice, { space: 'team', grantee: { kind: 'user', id: 'bob' }, access: 'read' });
    await caughtUp(opened, urls);
    const found = async () => (await engine.recall(bob, { query: 'team offsite Lisbon', shared: 'all' })).results.map((r) => r.memory.id);
    expect(await found()).toContain(shared.memory.id);

    await pauseReplay(urls.standby);
    try {
      await engine.revokeGrant(alice, grant.id);
      // The standby still holds the grant row and the memory; the grant is read on the primary.
      expect(await found()).not.toContain(shared.memory.id);
      await expect(engine.get(bob, shared.memory.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await queryOne(urls.standby, 'SELECT pg_wal_replay_resume()');
    }
  });

  it('R-ERASE-REPLICA: once the standby has replayed an erasure, it holds neither the text nor the ids outside the record', async () => {
    const urls = await cluster.freshDatabase();
    const opened = await openWithStandby(urls);
    const { engine } = opened;
    const secret = await engine.create(alice, { tier: 'ltm', content: 'The quokkavault combination is 7712' });
    await engine.update(alice, secret.memory.id, { content: 'The quokkavault combination is 7713' }, 1);
    await engine.create(bob, { tier: 'ltm', content: 'Bob keeps nothing secret' });
    await caughtUp(opened, urls);
    /** Rows of every table of the standby whose text contains `text`, by table. */
    const onStandby = async (text: string) => {
      const tables = await queryOne<{ names: string[] }>(
        urls.standby,
        // Unlogged tables (the rate limiter's counters) are not replicated at all.
        "SELECT array_agg(relname::text ORDER BY relname) AS names FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' AND relpersistence = 'p'",
      );
      const found: Record<string, number> = {};
      for (const name of tables.names) {
        const row = await queryOne<{ n: string }>(urls.standby, `SELECT count(*) AS n FROM "${name}" AS t WHERE t::text ILIKE $1`, [
          `%${text}%`,
        ]);
        if (Number(row.n) > 0) found[name] = Number(row.n);
      }
      return found;
    };
    expect(Object.keys(await onStandby('quokkavault')).length).toBeGreaterThan(0);

    const receipt = await engine.erase(alice, [secret.memory.id]);
    await caughtUp(opened, urls);
    expect(await onStandby('quokkavault')).toEqual({});
    expect(Object.keys(await onStandby(secret.memory.id)).sort()).toEqual(['memory_audit', 'memory_erasures']);
    expect((await engine.verifyErasure(alice, receipt.erasureId)).verified).toBe(true);
  });

  it('R-REPLICA-RYW, R-REPLICA-LAG: a paused standby serves stale reads to others, never a writer its own; far behind it serves nothing', async () => {
    const urls = await cluster.freshDatabase();
    const opened = await openWithStandby(urls);
    const { engine, recorder, store, clock } = opened;
    await engine.create(bob, { tier: 'ltm', content: 'Bob parks in bay 12' });
    await caughtUp(opened, urls);

    await pauseReplay(urls.standby);
    try {
      // Another server writes for bob: this one cannot know, so bob's reads may be stale (up to the bound).
      const otherServer = await openTestStore({ database: urls.primary, clock });
      try {
        await createMemoryEngine({
          store: otherServer.memories,
          embedder,
          clock,
          grants: otherServer.grants,
          erasures: otherServer.erasures,
        }).create(bob, {
          tier: 'ltm',
          content: 'Bob moved to bay 40',
        });
      } finally {
        await otherServer.close();
      }
      // This server writes for alice: her reads go to the primary until the standby shows it.
      await engine.create(alice, { tier: 'ltm', content: 'Alice booked the kayak for Saturday' });
      clock.advance(1_000);
      const status = await store.readReplica?.check();
      expect(status?.state).toBe('ready');
      recorder.take();

      expect(contents(await engine.list(bob, { limit: 10 }))).toEqual(['Bob parks in bay 12']);
      expect(contents(await engine.list(alice, { limit: 10 }))).toEqual(['Alice booked the kayak for Saturday']);
      expect(recorder.take()).toEqual([
        { target: 'replica', reason: 'caught-up' },
        { target: 'primary', reason: 'recent-write' },
      ]);

      // Two minutes later the standby still replays nothing: beyond the bound, everyone reads the primary.
      clock.advance(120_000);
      const lagging = await store.readReplica?.check();
      expect(lagging?.state).toBe('lagging');
      expect(lagging?.lagSeconds).toBeGreaterThanOrEqual(120);
      expect(recorder.warnings).toEqual([
        expect.stringMatching(/serves no reads: it is 12\d s behind the primary, beyond DATABASE_READ_MAX_LAG_MS \(5000 ms\)/),
      ]);
      expect(contents(await engine.list(bob, { limit: 10 }))).toEqual(['Bob moved to bay 40', 'Bob parks in bay 12']);
      expect(recorder.take()).toEqual([{ target: 'primary', reason: 'lagging' }]);
    } finally {
      await queryOne(urls.standby, 'SELECT pg_wal_replay_resume()');
    }

    // Replaying again: the standby serves, alice's write included, and says so once.
    await caughtUp(opened, urls);
    expect(recorder.recoveries).toEqual(['the read replica serves reads again']);
    expect(contents(await engine.list(alice, { limit: 10 }))).toEqual(['Alice booked the kayak for Saturday']);
    expect(contents(await engine.list(bob, { limit: 10 }))).toEqual(['Bob moved to bay 40', 'Bob parks in bay 12']);
    expect(recorder.take()).toEqual(Array(2).fill({ target: 'replica', reason: 'caught-up' }));
  });

  it('R-REPLICA-LAG: a standby already behind when the store opens serves nothing until it catches up', async () => {
    const urls = await cluster.freshDatabase();
    await waitForReplay(urls.primary, urls.standby);
    await pauseReplay(urls.standby);
    let opened: Opened;
    try {
      const otherServer = await openTestStore({ database: urls.primary });
      try {
        await createMemoryEngine({
          store: otherServer.memories,
          embedder,
          clock: new ManualClock(),
          grants: otherServer.grants,
          erasures: otherServer.erasures,
        }).create(bob, {
          tier: 'ltm',
          content: 'Bob moved to bay 40',
        });
      } finally {
        await otherServer.close();
      }
      // The standby has replayed nothing for longer than the bound when this server starts: the
      // age of the last transaction it replayed says so, though the server has no history yet.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      opened = await openWithStandby(urls, { maxLagMs: 1_000 });
      expect(opened.store.readReplica?.status()).toMatchObject({ state: 'lagging' });
      expect(opened.recorder.warnings).toEqual([expect.stringMatching(/serves no reads: it is up to \d+ s behind the primary/)]);
      expect(contents(await opened.engine.list(bob, { limit: 5 }))).toEqual(['Bob moved to bay 40']);
      expect(opened.recorder.take()).toEqual([{ target: 'primary', reason: 'lagging' }]);
    } finally {
      await queryOne(urls.standby, 'SELECT pg_wal_replay_resume()');
    }
    await caughtUp(opened, urls);
    expect(opened.recorder.recoveries).toEqual(['the read replica serves reads again']);
    expect(contents(await opened.engine.list(bob, { limit: 5 }))).toEqual(['Bob moved to bay 40']);
    expect(opened.recorder.take()).toEqual([{ target: 'replica', reason: 'caught-up' }]);
  });

  it('R-REPLICA-FALLBACK: a frozen standby (it takes queries and never answers) holds no read, no check and no shutdown', async () => {
    const urls = await cluster.freshDatabase();
    const opened = await openWithStandby(urls, { hostTimers: true, answerTimeoutMs: 1_000 });
    const { engine, recorder, store } = opened;
    await engine.create(alice, { tier: 'ltm', content: 'The gate code is 4711' });
    await caughtUp(opened, urls);
    recorder.take();

    const processes = await standbyProcesses(urls.standby);
    signal(processes, 'SIGSTOP');
    try {
      // Routed to the standby (its last check was good), the read outlives the answer timeout and the primary answers it.
      const started = performance.now();
      expect(contents(await engine.list(alice, { limit: 5 }))).toEqual(['The gate code is 4711']);
      expect(recorder.take()).toEqual([{ target: 'primary', reason: 'replica-error' }]);
      expect((await store.readReplica?.check())?.state).toBe('unavailable');
      expect(store.readReplica?.status().problem).toMatch(/does not answer/);
      expect(contents(await engine.list(alice, { limit: 5 }))).toEqual(['The gate code is 4711']);
      expect(recorder.take()).toEqual([{ target: 'primary', reason: 'unavailable' }]);
      expect(performance.now() - started).toBeLessThan(10_000);
      // Shutdown does not wait for the frozen server.
      const closing = performance.now();
      await store.close();
      expect(performance.now() - closing).toBeLessThan(5_000);
    } finally {
      signal(processes, 'SIGCONT');
    }
  });

  it('R-REPLICA-PROMOTED: a server not proven to replicate this primary (unverified at boot, or back after a silence) serves nothing', async () => {
    const urls = await cluster.freshDatabase();
    const clock = new ManualClock('2026-06-01T09:00:00.000Z');
    const recorder = new Recorder();
    let problem: string | undefined =
      'DATABASE_READ_URL names a standby of another cluster: its system identifier is 1, DATABASE_URL’s is 2';
    let asked = 0;
    const verifyStandby = async () => {
      asked++;
      return problem;
    };
    await withMonitor(urls, { clock, events: recorder.events, verifyStandby }, async (monitor) => {
      expect(await monitor.check()).toMatchObject({ state: 'unavailable', problem: expect.stringMatching(/another cluster/) });
      expect(monitor.route(alice.tenant)).toEqual({ target: 'primary', reason: 'unavailable' });
      expect(await monitor.check()).toMatchObject({ state: 'unavailable' });
      expect(asked).toBe(2);
      problem = undefined;
      await waitForReplay(urls.primary, urls.standby);
      expect((await monitor.check()).state).toBe('ready');
      expect((await monitor.check()).state).toBe('ready');
      expect(asked).toBe(3);
      // It stops answering, then answers again: whatever answers now must prove itself again.
      monitor.readFailed(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }));
      expect(monitor.status().state).toBe('unavailable');
      expect((await monitor.check()).state).toBe('ready');
      expect(asked).toBe(4);
    });
  });

  it('R-REPLICA-FAILING-READS: a standby that answers its checks but fails every read is paused, tried again, and paused longer', async () => {
    const urls = await cluster.freshDatabase();
    const clock = new ManualClock('2026-06-01T09:00:00.000Z');
    const recorder = new Recorder();
    await withMonitor(urls, { clock, events: recorder.events }, async (monitor) => {
      // What a standby answers when a read cannot run there (here: a relation it lacks).
      const failedRead = () => monitor.readFailed(Object.assign(new Error('relation "memories" does not exist'), { code: '42P01' }));
      const checkAfter = async (ms: number) => {
        clock.advance(ms);
        await waitForReplay(urls.primary, urls.standby);
        return (await monitor.check()).state;
      };
      expect(await checkAfter(0)).toBe('ready');
      // Below the threshold each failure concerns its read alone; a success in between starts the count over.
      for (let i = 0; i < FAILED_READS_BEFORE_PAUSE - 1; i++) failedRead();
      monitor.readSucceeded();
      for (let i = 0; i < FAILED_READS_BEFORE_PAUSE - 1; i++) failedRead();
      expect(monitor.route(alice.tenant)).toEqual({ target: 'replica', reason: 'caught-up' });
      expect(recorder.warnings).toHaveLength(1); // the throttled line of the first failed read
      failedRead();
      expect(monitor.route(alice.tenant)).toEqual({ target: 'primary', reason: 'unavailable' });
      expect(monitor.status()).toMatchObject({
        state: 'unavailable',
        problem: expect.stringMatching(/its reads fail .*does not exist.*again in 5 s/),
      });
      expect(recorder.warnings.at(-1)).toMatch(/serves no reads: its reads fail/);
      // Reads that set out before the pause and fail during it count for nothing.
      for (let i = 0; i < FAILED_READS_BEFORE_PAUSE; i++) failedRead();
      // Its checks pass, but it stays paused for the pause's length, then serves again.
      expect(await checkAfter(FIRST_READ_PAUSE_MS - 1_000)).toBe('unavailable');
      expect(await checkAfter(1_000)).toBe('ready');
      expect(recorder.recoveries).toHaveLength(1);
      expect(monitor.route(alice.tenant)).toEqual({ target: 'replica', reason: 'caught-up' });
      // Failing again right after: the next pause is twice as long.
      for (let i = 0; i < FAILED_READS_BEFORE_PAUSE - 1; i++) failedRead();
      expect(monitor.route(alice.tenant)).toEqual({ target: 'replica', reason: 'caught-up' });
      failedRead();
      expect(monitor.status().problem).toMatch(/again in 10 s/);
      expect(await checkAfter(FIRST_READ_PAUSE_MS)).toBe('unavailable');
      expect(await checkAfter(FIRST_READ_PAUSE_MS)).toBe('ready');
      // A read that succeeds brings the pause back to its first length.
      monitor.readSucceeded();
      for (let i = 0; i < FAILED_READS_BEFORE_PAUSE; i++) failedRead();
      expect(monitor.status().problem).toMatch(/again in 5 s/);
      expect(recorder.warnings.filter((warning) => /its reads fail/.test(warning))).toHaveLength(3);
    });
  });

  it('R-REPLICA-LAG: a step of the wall clock neither ages a caught-up standby nor freshens a silent one (lag is on a monotonic clock)', async () => {
    const urls = await cluster.freshDatabase();
    const wall = new ManualClock('2026-06-01T09:00:00.000Z');
    let elapsed = 0;
    await withMonitor(urls, { clock: wall, elapsedMs: () => elapsed, events: new Recorder().events }, async (monitor) => {
      await waitForReplay(urls.primary, urls.standby);
      expect((await monitor.check()).state).toBe('ready');
      expect(monitor.status().checkedAt).toEqual(new Date('2026-06-01T09:00:00.000Z'));
      // NTP steps the wall clock an hour ahead: nothing has aged.
      wall.advance(3_600_000);
      expect(monitor.route(alice.tenant)).toEqual({ target: 'replica', reason: 'caught-up' });
      // Time really passes without a check (a monitor stalled past the bound): the standby may be stale.
      elapsed += MAX_LAG_MS + 1;
      wall.set(new Date('2026-06-01T09:00:00.000Z'));
      expect(monitor.route(alice.tenant)).toEqual({ target: 'primary', reason: 'lagging' });
    });
  });

  it('R-REPLICA-LAG: a check does not wait behind a saturated primary pool; the standby keeps serving the reads meanwhile', async () => {
    const urls = await cluster.freshDatabase();
    const opened = await openWithStandby(urls, { primaryConnections: 1 });
    const { engine, recorder, store, clock } = opened;
    await engine.create(alice, { tier: 'ltm', content: 'The spare key is under the blue pot' });
    await caughtUp(opened, urls);

    // The primary pool's one connection is busy for 3 s: the check and a read are done before it is free.
    const busy = sql`SELECT pg_sleep(3)`.execute(store.connection.db).then(() => 'the primary pool' as const);
    try {
      clock.advance(1_000);
      const checkedAndRead = (async () => {
        expect((await store.readReplica?.check())?.state).toBe('ready');
        recorder.take();
        expect(contents(await engine.list(bob, { limit: 5 }))).toEqual([]);
        expect(recorder.take()).toEqual([{ target: 'replica', reason: 'caught-up' }]);
        return 'the check and the read' as const;
      })();
      expect(await Promise.race([checkedAndRead, busy])).toBe('the check and the read');
    } finally {
      await busy;
    }
  });

  it('R-REPLICA-RYW: forget with confirm deletes what the primary finds now, never what a lagging standby still shows', async () => {
    const urls = await cluster.freshDatabase();
    const opened = await openWithStandby(urls);
    const { engine, recorder } = opened;
    const code = await engine.create(alice, { tier: 'ltm', content: 'The garage door code is 1234' });
    await caughtUp(opened, urls);
    await pauseReplay(urls.standby);
    try {
      // Another server rewrites the memory; this one cannot know, and the standby has not replayed it.
      const otherServer = await openTestStore({ database: urls.primary, clock: opened.clock });
      try {
        const other = createMemoryEngine({
          store: otherServer.memories,
          embedder,
          clock: opened.clock,
          grants: otherServer.grants,
          erasures: otherServer.erasures,
        });
        await other.update(alice, code.memory.id, { content: 'Lunch with the team is at noon on Fridays' }, 1);
      } finally {
        await otherServer.close();
      }
      recorder.take();
      // The preview may be as stale as any read within the bound; the deletion may not.
      const preview = await engine.forget(alice, { query: 'garage door code', confirm: false });
      expect(preview.candidates.map((candidate) => candidate.content)).toEqual(['The garage door code is 1234']);
      expect(recorder.take()).toEqual([{ target: 'replica', reason: 'caught-up' }]);
      const confirmed = await engine.forget(alice, { query: 'garage door code', confirm: true });
      expect(confirmed).toMatchObject({ candidates: [], deleted: [] });
      expect((await engine.getUncounted(alice, code.memory.id)).content).toBe('Lunch with the team is at noon on Fridays');
    } finally {
      await queryOne(urls.standby, 'SELECT pg_wal_replay_resume()');
    }
  });

  it('R-REPLICA-FALLBACK: a standby that goes down mid-run never fails a read; it serves again once it is back', async () => {
    const urls = await cluster.freshDatabase();
    const opened = await openWithStandby(urls);
    const { engine, recorder, store } = opened;
    await engine.create(alice, { tier: 'ltm', content: 'The spare key is under the blue flowerpot' });
    await caughtUp(opened, urls);
    recorder.take();

    await cluster.control('stop');
    try {
      const first = await engine.recall(alice, { query: 'spare key' });
      expect(first.results.map((result) => result.memory.content)).toEqual(['The spare key is under the blue flowerpot']);
      expect(await engine.list(alice, { limit: 5 })).toMatchObject({ items: [{ content: 'The spare key is under the blue flowerpot' }] });
      expect(recorder.take()).toEqual([
        { target: 'primary', reason: 'replica-error' },
        { target: 'primary', reason: 'unavailable' },
      ]);
      expect(store.readReplica?.status()).toMatchObject({ state: 'unavailable', lagSeconds: undefined });
      expect(recorder.warnings).toEqual([
        expect.stringMatching(/^the read replica serves no reads: it does not answer: .+; the primary answers them$/),
      ]);
      // The checks keep finding it down, without a warning each.
      opened.clock.advance(1_000);
      expect((await store.readReplica?.check())?.state).toBe('unavailable');
      expect(recorder.warnings).toHaveLength(1);
    } finally {
      await cluster.control('start');
    }

    await caughtUp(opened, urls);
    expect(recorder.recoveries).toEqual(['the read replica serves reads again']);
    expect((await engine.recall(alice, { query: 'spare key' })).results).toHaveLength(1);
    expect(recorder.take()).toEqual([{ target: 'replica', reason: 'caught-up' }]);
  });

  it('R-REPLICA-FALLBACK: a standby unreachable at boot is not fatal: reads go to the primary, with a warning', async () => {
    const urls = await cluster.freshDatabase();
    const unreachable = new URL(urls.standby);
    unreachable.port = String(await unusedPort());
    const opened = await openWithStandby({ primary: urls.primary, standby: unreachable.toString() });
    expect(opened.store.readReplica?.status()).toMatchObject({ state: 'unavailable', checkedAt: undefined });
    expect(opened.recorder.warnings).toEqual([expect.stringMatching(/does not answer: .*ECONNREFUSED/)]);
    await opened.engine.create(alice, { tier: 'ltm', content: 'Tea, no sugar' });
    expect(contents(await opened.engine.list(alice, { limit: 5 }))).toEqual(['Tea, no sugar']);
    expect(opened.recorder.take()).toEqual([{ target: 'primary', reason: 'unavailable' }]);
  });

  it('R-REPLICA-PROMOTED: a primary as DATABASE_READ_URL, or a server that refuses the connection, is a boot error naming the variable', async () => {
    const urls = await cluster.freshDatabase();
    const asPrimary = openTestStore({ database: urls.primary, readDatabase: { database: urls.primary } });
    await expect(asPrimary).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
      data: { variable: 'DATABASE_READ_URL' },
      message: expect.stringMatching(/^DATABASE_READ_URL names a server that is not a hot standby .*pg_is_in_recovery\(\) is false/),
    });
    const missing = new URL(urls.standby);
    missing.pathname = '/no_such_database';
    expect(await codeOf(openTestStore({ database: urls.primary, readDatabase: { database: missing.toString() } }))).toBe('INVALID_CONFIG');
    const pglite = openTestStore({ database: 'pglite://memory', readDatabase: { database: urls.standby } });
    await expect(pglite).rejects.toThrow(/^DATABASE_READ_URL needs DATABASE_URL to be PostgreSQL/);
  });
});

describeWithStandby(`read replica: a standby promoted mid-run${skipReason}`, () => {
  let promoted: StandbyCluster | undefined;
  beforeAll(async () => {
    const result = await startStandby(pgvectorTestUrl, `store-pg-promoted-${process.pid}`);
    if (!result.ok) throw new Error(result.reason);
    promoted = result.cluster;
  });
  afterAll(async () => {
    await promoted?.dropDatabases();
    await promoted?.control('destroy');
  });

  it('R-REPLICA-PROMOTED, R-REPLICA-RYW: it stops serving with a warning, and no client sees its own write disappear', async () => {
    const cluster = promoted as StandbyCluster;
    const urls = await cluster.freshDatabase();
    const opened = await openWithStandby(urls);
    const { engine, recorder, store } = opened;
    await engine.create(alice, { tier: 'ltm', content: 'The boat insurance renews in May' });
    await caughtUp(opened, urls);

    await queryOne(urls.standby, 'SELECT pg_promote()');
    // Before any check notices: a write goes to the primary, and its writer reads it there.
    await engine.create(alice, { tier: 'ltm', content: 'The boat insurance moved to June' });
    recorder.take();
    expect(contents(await engine.list(alice, { limit: 5 }))).toEqual([
      'The boat insurance moved to June',
      'The boat insurance renews in May',
    ]);
    expect(recorder.take()).toEqual([{ target: 'primary', reason: 'recent-write' }]);

    opened.clock.advance(1_000);
    expect(await store.readReplica?.check()).toMatchObject({ state: 'promoted', lagSeconds: undefined });
    expect(recorder.warnings).toEqual([expect.stringMatching(/serves no reads: it is not a standby \(pg_is_in_recovery\(\) is false\)/)]);
    expect((await engine.recall(bob, { query: 'insurance' })).results).toEqual([]);
    expect(contents(await engine.list(alice, { limit: 5 }))).toHaveLength(2);
    expect(recorder.take()).toEqual(Array(2).fill({ target: 'primary', reason: 'promoted' }));

    // A server started now refuses it outright.
    expect(await codeOf(openTestStore({ database: urls.primary, readDatabase: { database: urls.standby } }))).toBe('INVALID_CONFIG');
  });
});

/** A monitor of its own over the two databases, its checks run when the test calls them; closed after `body`. */
async function withMonitor(
  urls: { primary: string; standby: string },
  options: {
    clock: ManualClock;
    events: ReplicaEvents;
    elapsedMs?: () => number;
    verifyStandby?: () => Promise<string | undefined>;
  },
  body: (monitor: ReplicaMonitor) => Promise<void>,
): Promise<void> {
  const primary = await openDatabase(urls.primary);
  const standby = await openDatabase(urls.standby);
  const monitor = new ReplicaMonitor({
    primary: primary.db,
    standby: standby.db,
    clock: options.clock,
    timers: new ManualTimers(options.clock),
    elapsedMs: options.elapsedMs ?? (() => options.clock.now().getTime()),
    intervalMs: 1_000,
    maxLagMs: MAX_LAG_MS,
    checkTimeoutMs: 5_000,
    writes: new RecentWrites(),
    events: options.events,
    ...(options.verifyStandby ? { verifyStandby: options.verifyStandby } : {}),
  });
  try {
    await body(monitor);
  } finally {
    await monitor.stop();
    await primary.close();
    await standby.close();
  }
}

/** Pauses the standby's replay and waits until it is paused (the function only asks). */
async function pauseReplay(standbyUrl: string): Promise<void> {
  await queryOne(standbyUrl, 'SELECT pg_wal_replay_pause()');
  const deadline = Date.now() + 10_000;
  while ((await queryOne<{ state: string }>(standbyUrl, 'SELECT pg_get_wal_replay_pause_state() AS state')).state !== 'paused') {
    if (Date.now() > deadline) throw new Error('the standby did not pause its replay');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The standby's postmaster and every process it started (its backends, walreceiver, startup process). */
async function standbyProcesses(standbyUrl: string): Promise<number[]> {
  const { data_directory } = await queryOne<{ data_directory: string }>(standbyUrl, 'SHOW data_directory');
  const { readFileSync } = await import('node:fs');
  const postmaster = Number(readFileSync(`${data_directory}/postmaster.pid`, 'utf8').split('\n')[0]);
  const { execFileSync } = await import('node:child_process');
  const children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map(Number);
  return [postmaster, ...children];
}

function signal(pids: readonly number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // gone meanwhile
    }
  }
}

async function unusedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 1;
}
