import { DEFAULT_ENGINE_SETTINGS, toTenantId, writeRules } from '@memsvc/core';
import { writeMemory } from '@memsvc/core/testing';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { FIRST_STATISTICS_ROWS } from '../src/connection/first-statistics.js';
import type { MemsvcStore } from '../src/index.js';
import { describeEachEngine } from './support/each-engine.js';
import { importedMemory } from './support/imported-memory.js';
import { openTestStore } from './support/open-test-store.js';

const alice = toTenantId('alice');
const actor = { id: 'test' };

describeEachEngine('first statistics of a new database', (engine) => {
  let store: MemsvcStore | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  /** Which of the planned tables have statistics of user_id, and which memsvc analysed itself. */
  const statistics = async (open: MemsvcStore) => {
    await sql`SELECT pg_stat_force_next_flush()`.execute(open.connection.db);
    const rows = await sql<{ table: string; planned: boolean; analyzed: boolean }>`
      SELECT t.relname AS table,
             EXISTS (SELECT 1 FROM pg_stats s WHERE s.schemaname = current_schema() AND s.tablename = t.relname AND s.attname = 'user_id') AS planned,
             t.last_analyze IS NOT NULL AS analyzed
      FROM pg_stat_user_tables t WHERE t.relname IN ('memories', 'memory_terms') ORDER BY t.relname`.execute(open.connection.db);
    return Object.fromEntries(rows.rows.map((row) => [row.table, { planned: row.planned, analyzed: row.analyzed }]));
  };

  it(`analyses memories and their postings once ${FIRST_STATISTICS_ROWS} have been written, not before`, async () => {
    store = await openTestStore({ database: await engine.freshDatabaseUrl() });
    const open = store;
    for (let i = 0; i < FIRST_STATISTICS_ROWS - 1; i++) {
      await open.memories.insertAsGiven(alice, { tier: 'ltm', content: `harbour note ${i}` }, actor);
    }
    await open.memories.settle();
    // Only autovacuum could have analysed them yet (PostgreSQL, rarely within a test): memsvc has not.
    const before = await statistics(open);
    expect(before.memories?.analyzed).toBe(false);
    expect(before.memory_terms?.analyzed).toBe(false);

    // The write that reaches the count goes through the write rules, as create_memory does; eight at once.
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        writeMemory(
          open.memories,
          alice,
          { tier: 'ltm', content: `lighthouse keeper entry ${i}` },
          actor,
          writeRules(DEFAULT_ENGINE_SETTINGS.similarity),
        ),
      ),
    );
    await open.memories.settle();
    expect(await statistics(open)).toEqual({
      memories: { planned: true, analyzed: expect.any(Boolean) },
      memory_terms: { planned: true, analyzed: expect.any(Boolean) },
    });
  });

  it('counts the memories an import writes', async () => {
    store = await openTestStore({ database: await engine.freshDatabaseUrl() });
    const at = new Date('2026-01-01T00:00:00Z');
    const memories = Array.from({ length: FIRST_STATISTICS_ROWS }, (_, i) =>
      importedMemory({ id: `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`, content: `imported harbour note ${i}`, at }),
    );
    await store.imports.importMemories(alice, memories, { dryRun: false });
    await store.memories.settle();
    expect(await statistics(store)).toMatchObject({ memories: { planned: true }, memory_terms: { planned: true } });
  });
});
