import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';

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

/** The engines an end-to-end file runs on (PGlite always, PostgreSQL when the run has one). */
export { type DatabaseEngine as E2eEngine, databaseEngines as e2eEngines } from '../../../../tooling/vitest/engine-databases.ts';
