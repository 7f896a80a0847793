import { afterAll, inject } from 'vitest';
import type {} from './postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from './test-databases.ts';

/** An engine an end-to-end file runs on, and a database of it for a server or dashboard to open. */
export interface DatabaseEngine {
  readonly name: string;
  /** A `DATABASE_URL`: in-memory PGlite, or a fresh PostgreSQL database dropped after the file. */
  database(): Promise<string>;
}

/** The engines a file runs on: PGlite always, PostgreSQL when the test run has one. */
export function databaseEngines(databasePrefix: string): DatabaseEngine[] {
  const engines: DatabaseEngine[] = [{ name: 'pglite', database: async () => 'pglite://memory' }];
  const pgUrl = inject('pgvectorTestUrl');
  if (!pgUrl) return engines;
  const created: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of created.splice(0)) await database.drop();
  });
  engines.push({
    name: 'postgres',
    database: async () => {
      const database = await createTestDatabase(pgUrl, databasePrefix);
      created.push(database);
      return database.url;
    },
  });
  return engines;
}
