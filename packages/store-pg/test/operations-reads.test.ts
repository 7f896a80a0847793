import { checkReindexRequest, toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { type MemsvcStore, PgOperationsReads } from '../src/index.js';
import { describeEachEngine } from './support/each-engine.js';
import { openTestStore } from './support/open-test-store.js';

const alice = toTenantId('alice');
const bob = toTenantId('bob');
const actor = { id: 'test' };

describeEachEngine("the operator's reads (operations page) and the recent reindex jobs", (engine) => {
  let store: MemsvcStore;
  const clock = new ManualClock('2026-05-10T12:30:00.000Z');

  beforeAll(async () => {
    store = await openTestStore({ database: await engine.freshDatabaseUrl(), clock, vector: { model: 'memsvc-local-v1' } });
  });
  afterAll(async () => {
    await store?.close();
  });
  beforeEach(async () => {
    await sql`TRUNCATE memories, memory_audit, memory_links, reindex_jobs, scheduler_state CASCADE`.execute(store.connection.db);
  });

  const at = async <T>(instant: string, work: () => Promise<T>): Promise<T> => {
    clock.set(instant);
    try {
      return await work();
    } finally {
      clock.set('2026-05-10T12:30:00.000Z');
    }
  };
  const ltm = (tenant: typeof alice, content: string) => store.memories.insertAsGiven(tenant, { tier: 'ltm', content }, actor);

  /** A small history over ten days, at known instants. */
  async function seedHistory(): Promise<void> {
    // Before the window: one still alive, one created and deleted before it (no trace in it).
    await at('2026-05-01T08:00:00.000Z', () => ltm(alice, 'an old fact'));
    const gone = await at('2026-05-01T09:00:00.000Z', () => ltm(alice, 'a fact deleted long ago'));
    await at('2026-05-02T09:00:00.000Z', () => store.memories.softDelete(alice, gone.id, actor));
    // In the window: two on 05-08, a short-term one on 05-09, one deleted and one created on 05-10.
    const first = await at('2026-05-08T00:10:00.000Z', () => ltm(alice, 'first of the eighth'));
    await at('2026-05-08T23:59:00.000Z', () => ltm(bob, 'second of the eighth'));
    await at('2026-05-09T10:00:00.000Z', () =>
      store.memories.insertAsGiven(bob, { tier: 'stm', content: 'a passing note', expiresAt: new Date('2026-06-01T00:00:00.000Z') }, actor),
    );
    await at('2026-05-10T11:15:00.000Z', () => store.memories.softDelete(alice, first.id, actor));
    await at('2026-05-10T12:05:00.000Z', () => ltm(bob, 'new today'));
  }

  it('counts the memories alive at the end of each day by tier, from created_at and deleted_at', async () => {
    await seedHistory();
    const days = await store.operations.memoriesByTierPerDay({ until: clock.now(), days: 3 });
    expect(days).toEqual([
      { day: new Date('2026-05-08T00:00:00.000Z'), ltm: 3, stm: 0 },
      { day: new Date('2026-05-09T00:00:00.000Z'), ltm: 3, stm: 1 },
      { day: new Date('2026-05-10T00:00:00.000Z'), ltm: 3, stm: 1 },
    ]);
    const empty = await store.operations.memoriesByTierPerDay({ until: new Date('2026-04-01T00:00:00.000Z'), days: 2 });
    expect(empty.map((day) => [day.ltm, day.stm])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it('counts audit actions per hour over the window, every tenant, and says the scan saw them all', async () => {
    await seedHistory();
    const activity = await store.operations.operationsPerHour({ until: clock.now(), hours: 3 });
    expect(activity.since).toEqual(new Date('2026-05-10T10:00:00.000Z'));
    expect(activity.hours).toBe(3);
    expect(activity.counts).toEqual([
      { hour: 1, action: 'delete', count: 1 },
      { hour: 2, action: 'create', count: 1 },
    ]);
    expect(activity.complete).toBe(true);
    // Every audit row was read (eight of them), none past the bound.
    expect(activity.scanned).toBe(8);

    const wide = await store.operations.operationsPerHour({ until: clock.now(), hours: 72 });
    const total = wide.counts.reduce((sum, row) => sum + row.count, 0);
    expect(total).toBe(5);
    expect(wide.since).toEqual(new Date('2026-05-07T13:00:00.000Z'));
    // 2026-05-08 00:10 is in the twelfth hour after 2026-05-07 13:00.
    expect(wide.counts.filter((row) => row.hour === 11)).toEqual([{ hour: 11, action: 'create', count: 1 }]);
    expect(wide.counts.every((row) => row.hour >= 0 && row.hour < 72)).toBe(true);
  });

  it('reads only the newest audit rows up to its bound, and says when the window was cut short', async () => {
    await seedHistory();
    const bounded = new PgOperationsReads({ db: store.connection.db, clock, auditScanMax: 2 });
    const cut = await bounded.operationsPerHour({ until: clock.now(), hours: 72 });
    expect(cut.scanned).toBe(2);
    expect(cut.complete).toBe(false);
    expect(cut.counts).toEqual([
      { hour: 70, action: 'delete', count: 1 },
      { hour: 71, action: 'create', count: 1 },
    ]);
    // The bound reached a row older than the window: everything in the window was seen.
    const seen = await new PgOperationsReads({ db: store.connection.db, clock, auditScanMax: 6 }).operationsPerHour({
      until: clock.now(),
      hours: 72,
    });
    expect(seen).toMatchObject({ scanned: 6, complete: true });
  });

  it("reads the scheduler's last runs with their times", async () => {
    expect(await store.operations.schedulerRuns()).toEqual([]);
    await store.jobRuns.runExclusive('stm-expiry-sweep', 60_000, async () => 'success');
    await expect(
      store.jobRuns.runExclusive('ltm-decay', 60_000, async () => {
        throw new Error('the decay scan broke');
      }),
    ).rejects.toThrow('the decay scan broke');
    expect(await store.operations.schedulerRuns()).toEqual([
      {
        job: 'ltm-decay',
        lastStartedAt: clock.now(),
        lastFinishedAt: clock.now(),
        lastStatus: 'failed',
        lastError: 'the decay scan broke',
        runCount: 1,
      },
      {
        job: 'stm-expiry-sweep',
        lastStartedAt: clock.now(),
        lastFinishedAt: clock.now(),
        lastStatus: 'success',
        lastError: null,
        runCount: 1,
      },
    ]);
  });

  it('counts the live memories a reindex walk covers, bounded by its limit', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await ltm(alice, `fact ${i}`)).id);
    await ltm(bob, 'not alice');
    await store.memories.softDelete(alice, ids[4] ?? '', actor);
    expect(await store.operations.countReindexWalk({ tenant: undefined, after: undefined, limit: 100 })).toBe(5);
    expect(await store.operations.countReindexWalk({ tenant: alice, after: undefined, limit: 100 })).toBe(4);
    expect(await store.operations.countReindexWalk({ tenant: alice, after: ids[1], limit: 100 })).toBe(2);
    expect(await store.operations.countReindexWalk({ tenant: undefined, after: undefined, limit: 3 })).toBe(3);
  });

  it('lists the recent reindex jobs newest first, at most the limit', async () => {
    const queued = [];
    for (let i = 1; i <= 3; i++) queued.push(await store.reindexJobs.enqueue(checkReindexRequest({ batchSize: i }), `admin-${i}`));
    await store.reindexJobs.requestCancel(queued[0]?.jobId ?? '');
    const recent = await store.reindexJobs.recent(2);
    expect(recent.map((job) => job.requestedBy)).toEqual(['admin-3', 'admin-2']);
    expect(recent[0]).toMatchObject({ state: 'queued', options: { batchSize: 3 } });
    const all = await store.reindexJobs.recent(50);
    expect(all.map((job) => [job.requestedBy, job.state])).toEqual([
      ['admin-3', 'queued'],
      ['admin-2', 'queued'],
      ['admin-1', 'cancelled'],
    ]);
    expect(await store.reindexJobs.recent(0)).toHaveLength(1);
  });
});
