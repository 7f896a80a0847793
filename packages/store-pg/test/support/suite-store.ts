import type { ManualClock } from '@memsvc/core/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { MemsvcStore } from '../../src/index.js';
import type { Engine } from './each-engine.js';
import { openTestStore } from './open-test-store.js';

/** The store a suite shares, and its database URL (to open a second "replica" on it). */
export interface SuiteStore {
  readonly current: MemsvcStore;
  readonly url: string;
}

/**
 * One store of this engine for a whole suite, on a fresh database, on the suite's clock: before
 * each test the named tables are emptied and the clock is set back to `start`, so tests share
 * the (slow to open) store but no rows.
 */
export function useSuiteStore(engine: Engine, clock: ManualClock, options: { tables: readonly string[]; start: string }): SuiteStore {
  const holder = {} as { current: MemsvcStore; url: string };
  beforeAll(async () => {
    holder.url = await engine.freshDatabaseUrl();
    holder.current = await openTestStore({ database: holder.url, clock });
  });
  afterAll(async () => {
    await holder.current?.close();
  });
  beforeEach(async () => {
    await sql`TRUNCATE ${sql.join(options.tables.map((table) => sql.table(table)))} CASCADE`.execute(holder.current.connection.db);
    clock.set(options.start);
  });
  return holder;
}
