import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { verifies } from '../../../packages/core/test/requirements.js';
import { serverBin, serverEnv } from './support/server-process.js';
import { call, errorCode } from './support/tool-calls.js';
import { inProcessConnection } from './support/tool-connections.js';

// Issue 38 (Deliver 5): the quick start's first call names no userId. On lite it must land on one
// user, the same one whichever agent makes it; standard keeps refusing it.
const LITE = { DATABASE_URL: 'pglite://memory', DEPLOYMENT_PROFILE: 'lite', EMBEDDING_PROVIDER: 'local' };

/** Two agents remember without a userId; each finds what the other stored, under the default user. */
async function rememberAndRecallWithoutUserId(client: Client, expectedUser: string): Promise<void> {
  const stored = await call(client, 'remember', { content: 'The staging database runs on port 6543' });
  expect(stored.isError).toBe(false);
  // A write returns the id; whose memory it is, get_memory says.
  expect((await call(client, 'get_memory', { memoryId: stored.body.memory.id })).body.memory.userId).toBe(expectedUser);
  const found = await call(client, 'recall', { query: 'staging database port' });
  expect(found.isError).toBe(false);
  expect(found.body.results.map((hit: { id: string }) => hit.id)).toContain(stored.body.memoryId);
  // Naming the default user explicitly reaches the same memories.
  const named = await call(client, 'recall', { userId: expectedUser, query: 'staging database port' });
  expect(named.body.results[0].id).toBe(stored.body.memoryId);
}

describe('a default user on lite', () => {
  it(verifies('R-LITE-USER-CALL', 'in process: remember and recall without userId act as "me"'), async () => {
    const connection = await inProcessConnection(LITE);
    try {
      await rememberAndRecallWithoutUserId(connection.client, 'me');
    } finally {
      await connection.close();
    }
  });

  it(verifies('R-LITE-USER-CALL', 'in process: MEMSVC_DEFAULT_USER_ID replaces "me"'), async () => {
    const connection = await inProcessConnection({ ...LITE, MEMSVC_DEFAULT_USER_ID: 'dana' });
    try {
      await rememberAndRecallWithoutUserId(connection.client, 'dana');
    } finally {
      await connection.close();
    }
  });

  it(verifies('R-LITE-USER-CALL', 'over stdio, as the README configures a client: remember and recall without userId'), async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [serverBin],
      env: serverEnv({ ...LITE, HOST: '127.0.0.1', PORT: '0' }),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio', version: '0.0.0' });
    await client.connect(transport);
    try {
      await rememberAndRecallWithoutUserId(client, 'me');
    } finally {
      await client.close();
    }
  });

  it(verifies('R-LITE-USER-DEFAULT', 'standard without MEMSVC_DEFAULT_USER_ID still refuses a call without userId'), async () => {
    const connection = await inProcessConnection({ DATABASE_URL: 'pglite://memory', EMBEDDING_PROVIDER: 'local' });
    try {
      const refused = await call(connection.client, 'remember', { content: 'The staging database runs on port 6543' });
      expect(refused.isError).toBe(true);
      expect(refused.body.error).toMatchObject({ code: 'INVALID_INPUT', data: { field: 'userId' } });
      expect(await errorCode(connection.client, 'recall', { query: 'staging' })).toBe('INVALID_INPUT');
      expect((await call(connection.client, 'list_memories', { userId: 'me' })).body.memories).toEqual([]);
    } finally {
      await connection.close();
    }
  });
});
