import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, inject } from 'vitest';
import { engineLeftOut } from '../../../../tooling/vitest/engine-selection.ts';
// Brings in the typing of the value the PostgreSQL global setup provides.
import type {} from '../../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../../tooling/vitest/test-databases.ts';

export type EngineName = 'pglite' | 'postgres';

/** One database engine under test, handing out fresh, empty databases. */
export interface Engine {
  readonly name: EngineName;
  /**
   * A URL of a new, empty database of this engine, dropped or deleted after the file's tests.
   * `reopenable`: the URL must name the same data when opened again (for PGlite, a directory
   * instead of memory).
   */
  freshDatabaseUrl(options?: { reopenable?: boolean }): Promise<string>;
  /** Whether two independent connections can share one database (not so for one PGlite instance). */
  readonly supportsSecondConnection: boolean;
}

const pgvectorTestUrl = inject('pgvectorTestUrl');

/**
 * Runs the same suite on embedded PGlite and on a real PostgreSQL with pgvector (Kysely's habit:
 * every test loops over its dialects). The PostgreSQL run gets its own database per call, so
 * test files can run in parallel; PGlite gets a throw-away in-memory instance.
 */
export function describeEachEngine(title: string, suite: (engine: Engine) => void): void {
  const pgliteLeftOut = engineLeftOut('pglite');
  if (pgliteLeftOut) describe.skip(`${title} [pglite] (skipped: ${pgliteLeftOut})`, () => suite(pgliteEngine()));
  else describe(`${title} [pglite]`, () => suite(pgliteEngine()));
  const postgresLeftOut = engineLeftOut('postgres');
  if (postgresLeftOut) {
    describe.skip(`${title} [postgres] (skipped: ${postgresLeftOut})`, () => suite(postgresEngine('postgres://unavailable')));
  } else if (pgvectorTestUrl) {
    describe(`${title} [postgres]`, () => suite(postgresEngine(pgvectorTestUrl)));
  } else {
    describe.skip(`${title} [postgres] (skipped: no real PostgreSQL — run tooling/scripts/pg-local.sh or set PGVECTOR_TEST_URL)`, () =>
      suite(postgresEngine('postgres://unavailable')));
  }
}

function pgliteEngine(): Engine {
  return {
    name: 'pglite',
    supportsSecondConnection: false,
    freshDatabaseUrl: async (options) => (options?.reopenable ? `pglite://${join(temporaryDirectory(), 'data')}` : 'pglite://memory'),
  };
}

function postgresEngine(baseUrl: string): Engine {
  const created: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of created.splice(0)) await database.drop();
  });
  return {
    name: 'postgres',
    supportsSecondConnection: true,
    freshDatabaseUrl: async () => {
      const database = await createTestDatabase(baseUrl);
      created.push(database);
      return database.url;
    },
  };
}

const temporaryDirectories: string[] = [];

/**
 * Removes the directories temporaryDirectory handed out. A setup file (test/support/after-each-file.ts)
 * runs it after every test file: with one module graph per worker this module is loaded once, so an
 * `afterAll` here would belong to the first file only.
 */
export function removeTemporaryDirectories(): void {
  for (const directory of temporaryDirectories.splice(0)) rmSync(directory, { recursive: true, force: true });
}

/** A temporary directory, removed after the file's tests. */
export function temporaryDirectory(prefix = 'memsvc-test-'): string {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  temporaryDirectories.push(directory);
  return directory;
}
