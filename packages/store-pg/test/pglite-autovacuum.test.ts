import { toTenantId } from '@memsvc/core';
import { ManualClock, ManualTimers } from '@memsvc/core/testing';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { upkeepOf } from '../src/connection/pglite-autovacuum.js';
import { type MemsvcStore, PGLITE_AUTOVACUUM_INTERVAL_MS } from '../src/index.js';
import { describeEachEngine } from './support/each-engine.js';
import { openTestStore } from './support/open-test-store.js';

const alice = toTenantId('alice');
const actor = { id: 'test' };

describe('autovacuum thresholds (PostgreSQL defaults)', () => {
  const activity = { table: 't', liveRows: 1000, deadRows: 0, insertedSinceVacuum: 0, modifiedSinceAnalyze: 0 };

  it('vacuums past 50 + 20% dead rows, or 1000 + 20% inserted rows; analyses past 50 + 10% changed rows', () => {
    expect(upkeepOf(activity)).toEqual({ table: 't', vacuum: false, analyze: false });
    expect(upkeepOf({ ...activity, deadRows: 250 })).toMatchObject({ vacuum: false });
    expect(upkeepOf({ ...activity, deadRows: 251 })).toMatchObject({ vacuum: true, analyze: false });
    expect(upkeepOf({ ...activity, insertedSinceVacuum: 1200 })).toMatchObject({ vacuum: false });
    expect(upkeepOf({ ...activity, insertedSinceVacuum: 1201 })).toMatchObject({ vacuum: true });
    expect(upkeepOf({ ...activity, modifiedSinceAnalyze: 150 })).toMatchObject({ analyze: false });
    expect(upkeepOf({ ...activity, modifiedSinceAnalyze: 151 })).toMatchObject({ vacuum: false, analyze: true });
  });
});

describeEachEngine('PGlite autovacuum', (engine) => {
  let store: MemsvcStore | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  const tableStats = async (open: MemsvcStore) => {
    await sql`SELECT pg_stat_force_next_flush()`.execute(open.connection.db);
    const rows = await sql<{ table: string; vacuumed: boolean; analyzed: boolean; dead: string }>`
      SELECT relname AS table, last_vacuum IS NOT NULL AS vacuumed, last_analyze IS NOT NULL AS analyzed, n_dead_tup AS dead
      FROM pg_stat_user_tables WHERE relname IN ('memories', 'memory_terms', 'lexical_corpus')`.execute(open.connection.db);
    return Object.fromEntries(
      rows.rows.map((row) => [row.table, { vacuumed: row.vacuumed, analyzed: row.analyzed, dead: Number(row.dead) }]),
    );
  };
  const writeMemories = async (open: MemsvcStore, count: number) => {
    for (let i = 0; i < count; i++) await open.memories.insertAsGiven(alice, { tier: 'ltm', content: `harbour note ${i}` }, actor);
  };

  if (engine.name === 'postgres') {
    it('is not there on PostgreSQL, which runs its own autovacuum', async () => {
      store = await openTestStore({ database: await engine.freshDatabaseUrl(), autovacuum: { intervalMs: PGLITE_AUTOVACUUM_INTERVAL_MS } });
      expect(store.autovacuum).toBeUndefined();
    });
    return;
  }

  it('vacuums and analyses the tables past the thresholds, and only those', async () => {
    store = await openTestStore({ database: await engine.freshDatabaseUrl() });
    await writeMemories(store, 120);
    expect(await tableStats(store)).toMatchObject({ memories: { vacuumed: false, analyzed: false } });

    // 100 of them purged: dead rows past the vacuum threshold (50 + 20% of the 20 left).
    await sql`DELETE FROM memories WHERE id IN (SELECT id FROM memories ORDER BY id LIMIT 100)`.execute(store.connection.db);
    const upkeep = (await store.autovacuum?.runOnce()) ?? [];
    // 120 new memories pass the analyze threshold (50 + 10%) too; so do their postings.
    expect(upkeep).toEqual(
      expect.arrayContaining([
        { table: 'memories', vacuum: true, analyze: true },
        { table: 'memory_terms', vacuum: true, analyze: true },
      ]),
    );
    const after = await tableStats(store);
    expect(after.memories).toMatchObject({ vacuumed: true, analyzed: true, dead: 0 });
    expect((await store.autovacuum?.runOnce())?.map((table) => table.table)).not.toContain('memories');
  });

  it('runs on its interval by the timers it is given, and not after it is stopped', async () => {
    const clock = new ManualClock('2026-06-01T00:00:00.000Z');
    const timers = new ManualTimers(clock);
    const failures: unknown[] = [];
    store = await openTestStore({
      database: await engine.freshDatabaseUrl(),
      clock,
      autovacuum: { intervalMs: PGLITE_AUTOVACUUM_INTERVAL_MS, timers, onError: (error) => failures.push(error) },
    });
    await writeMemories(store, 80);
    expect(timers.advance(PGLITE_AUTOVACUUM_INTERVAL_MS - 1)).toBe(0);
    expect(timers.advance(1)).toBe(1);
    await store.autovacuum?.idle();
    expect(await tableStats(store)).toMatchObject({ memories: { analyzed: true } });
    // The next pass is scheduled once this one is done.
    expect(timers.pending).toBe(1);
    await store.autovacuum?.stop();
    expect(timers.pending).toBe(0);
    expect(timers.advance(2 * PGLITE_AUTOVACUUM_INTERVAL_MS)).toBe(0);
    expect(failures).toEqual([]);
  });
});
