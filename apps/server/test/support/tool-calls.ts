import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, expect, inject } from 'vitest';
import type {} from '../../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../../tooling/vitest/test-databases.ts';

// biome-ignore lint/suspicious/noExplicitAny: tool results are arbitrary JSON that the assertions navigate
export type Structured = Record<string, any>;

/** Calls a tool as a client does; the result's error flag and its structured content. */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: Structured }> {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, body: (result.structuredContent ?? {}) as Structured };
}

/** The typed error code of a call that must fail. */
export async function errorCode(client: Client, name: string, args: Record<string, unknown>): Promise<string | undefined> {
  const result = await call(client, name, args);
  expect(result.isError, `${name} should fail`).toBe(true);
  return result.body.error?.code;
}

export interface E2eEngine {
  readonly name: string;
  /** A `DATABASE_URL` for a server of this engine: in-memory PGlite, or a fresh PostgreSQL database dropped after the file. */
  database(): Promise<string>;
}

/** The engines an end-to-end file runs on: PGlite always, PostgreSQL when the test run has one. */
export function e2eEngines(databasePrefix: string): E2eEngine[] {
  const engines: E2eEngine[] = [{ name: 'pglite', database: async () => 'pglite://memory' }];
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
