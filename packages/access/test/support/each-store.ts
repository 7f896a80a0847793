import { ManualClock } from '@memsvc/core/testing';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { engineLeftOut, type TestEngineName } from '../../../../tooling/vitest/engine-selection.ts';
import type {} from '../../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../../tooling/vitest/test-databases.ts';
import { testTemplates } from '../../../../tooling/vitest/test-templates.ts';
// store-pg implements access's ports and depends on this package, so it cannot be a dependency
// here too (a circle turbo refuses): the tests open the built store by path. packages/access's
// turbo.json has its typecheck wait for store-pg's build.
import { type MemsvcStore, openStore } from '../../../store-pg/dist/index.js';

export type { MemsvcStore };

/** The store a suite runs on, opened before its tests on the suite's clock. */
export interface SuiteStore {
  readonly current: MemsvcStore;
  readonly clock: ManualClock;
}

const pgvectorTestUrl = inject('pgvectorTestUrl');

/**
 * Runs a suite on a real store of each engine: embedded PGlite, and PostgreSQL with pgvector
 * (PGVECTOR_TEST_URL) in a database of its own, dropped after the suite.
 */
export function describeOnEachStore(title: string, start: string, suite: (store: SuiteStore) => void): void {
  for (const engine of ['pglite', 'postgres'] as const satisfies readonly TestEngineName[]) {
    const leftOut =
      engineLeftOut(engine) ?? (engine === 'postgres' && !pgvectorTestUrl ? 'no real PostgreSQL: set PGVECTOR_TEST_URL' : undefined);
    if (leftOut) {
      describe.skip(`${title} [${engine}] (skipped: ${leftOut})`, () => undefined);
      continue;
    }
    describe(`${title} [${engine}]`, () => {
      const holder = { clock: new ManualClock(start) } as { current: MemsvcStore; clock: ManualClock };
      let database: TestDatabase | undefined;
      beforeAll(async () => {
        database = engine === 'postgres' && pgvectorTestUrl ? await createTestDatabase(pgvectorTestUrl) : undefined;
        holder.current = await openStore({ database: database?.url ?? 'pglite://memory', clock: holder.clock, ...testTemplates() });
      });
      afterAll(async () => {
        await holder.current?.close();
        await database?.drop();
      });
      suite(holder);
    });
  }
}
