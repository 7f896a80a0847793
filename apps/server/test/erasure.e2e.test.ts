import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, e2eEngines, errorCode } from './support/tool-calls.js';
import { TOOL_CONNECTIONS, type ToolConnection } from './support/tool-connections.js';

const engines = e2eEngines('memsvc_erasure');
const cases = engines.flatMap((engine) => TOOL_CONNECTIONS.map((connection) => ({ ...connection, engine, name: engine.name })));

/** Erasure as a client meets it (issue 43): delete_memory, bulk_delete_memories and forget with erase, a receipt, verify_erasure. */
describe.each(cases)('erasure over $transport [$name]', ({ engine, connect }) => {
  let connection: ToolConnection;
  let client: Client;
  beforeAll(async () => {
    connection = await connect({ DATABASE_URL: await engine.database(), DEPLOYMENT_PROFILE: 'lite', EMBEDDING_PROVIDER: 'local' });
    client = connection.client;
  });
  afterAll(async () => {
    await connection?.close();
  });

  const write = async (userId: string, content: string) =>
    (await call(client, 'create_memory', { userId, content, type: 'long-term' })).body.memory.id as string;

  it('erases by id, by several ids and by query, each with a receipt that verify_erasure checks; none can be restored', async () => {
    const one = await write('erin', 'The gazebokey for the shed is under the blue pot');
    const erased = await call(client, 'delete_memory', { userId: 'erin', memoryId: one, erase: true });
    expect(erased.isError).toBe(false);
    expect(erased.body).toMatchObject({ deleted: true, erased: true, memoryId: one });
    const receipt = erased.body.receipt;
    expect(receipt).toMatchObject({ memoryIds: [one], state: 'completed', counts: { memories: 1, vectors: 1 } });
    expect(receipt.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await call(client, 'verify_erasure', { userId: 'erin', erasureId: receipt.erasureId })).body).toMatchObject({
      verified: true,
      digestMatches: true,
    });
    expect(await errorCode(client, 'restore_memory', { userId: 'erin', memoryId: one })).toBe('ERASED');
    expect(await errorCode(client, 'delete_memory', { userId: 'erin', memoryId: one, erase: true })).toBe('ERASED');
    expect(await errorCode(client, 'get_memory', { userId: 'erin', memoryId: one })).toBe('NOT_FOUND');
    expect((await call(client, 'recall', { userId: 'erin', query: 'gazebokey shed' })).body.results).toEqual([]);

    const two = [await write('erin', 'Erin parks in bay 7'), await write('erin', 'Erin swims on Tuesdays')];
    const other = await write('frank', 'Frank keeps a spare key too');
    // All or nothing: one id that is not erin's refuses the call.
    expect(await errorCode(client, 'bulk_delete_memories', { userId: 'erin', memoryIds: [...two, other], erase: true })).toBe('NOT_FOUND');
    const bulk = await call(client, 'bulk_delete_memories', { userId: 'erin', memoryIds: two, erase: true });
    expect(bulk.body).toMatchObject({ deletedCount: 2, receipt: { memoryIds: [...two].sort() } });
    expect((await call(client, 'get_memory', { userId: 'frank', memoryId: other })).isError).toBe(false);

    await write('erin', 'The old wifi password was trellis42');
    const preview = await call(client, 'forget', { userId: 'erin', query: 'wifi password trellis42', erase: true });
    expect(preview.body).toMatchObject({ dryRun: true });
    const forgotten = await call(client, 'forget', { userId: 'erin', query: 'wifi password trellis42', erase: true, confirm: true });
    expect(forgotten.body.receipt.counts.memories).toBe(1);
    expect(forgotten.body.message).toContain('erased 1 of 1 memory for good');
    expect(await errorCode(client, 'verify_erasure', { userId: 'frank', erasureId: forgotten.body.receipt.erasureId })).toBe('NOT_FOUND');
  });
});
