import { TOOL_SET_NAMES } from '@memsvc/config';

import { InMemoryMemoryStore, inMemoryEngine, ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpServer } from '../src/index.js';

/**
 * The memory tools over the engine on core's in-memory store, called through the SDK's linked
 * transport pair: the tools as a client sees them, with no database, process or port — what a
 * user of the library can do to test an agent built on these tools.
 */
async function connectedClient(clock: ManualClock) {
  const store = new InMemoryMemoryStore({ clock });
  // No embedding model: recall ranks by full text alone, as with EMBEDDING_PROVIDER=disabled.
  const engine = inMemoryEngine(store, { embedder: new StaticEmbedder({}, undefined), clock });
  const server = createMcpServer(
    { name: 'memsvc-test', version: '0.0.0' },
    { clock, engine, pipeline: { defaultUserId: 'alice' }, toolSets: TOOL_SET_NAMES },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test-client', version: '0.0.0' });
  await client.connect(clientSide);
  return { client, store, close: () => client.close() };
}

type Structured = Record<string, unknown> & { memory?: { id: string; version: number } };

describe('memory tools over the in-memory store', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  const open = async (clock = new ManualClock('2026-05-01T10:00:00Z')) => {
    const connection = await connectedClient(clock);
    closers.push(connection.close);
    return connection;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    return { isError: result.isError === true, structured: result.structuredContent as Structured };
  };

  it('creates, collapses an exact duplicate, recalls, reads and audits a memory', async () => {
    const { client, store } = await open();
    const created = await call(client, 'create_memory', { content: 'The staging database listens on port 5433', type: 'long-term' });
    expect(created).toMatchObject({ isError: false, structured: { outcome: 'created', wasDeduped: false, embedded: false } });
    const id = created.structured.memory?.id ?? '';

    const again = await call(client, 'create_memory', { content: 'the staging database listens on port 5433 ', type: 'ltm' });
    expect(again.structured).toMatchObject({ outcome: 'duplicate', wasDeduped: true, memory: { id } });

    const recalled = await call(client, 'recall', { query: 'Which port does the staging database use?' });
    expect(recalled.structured).toMatchObject({ count: 1, semantic: false, results: [{ id }] });

    const read = await call(client, 'get_memory', { memoryId: id });
    expect(read.structured).toMatchObject({ found: true, memory: { id, accessCount: 2 } }); // the recall counted one
    const audit = await call(client, 'get_memory_audit', { memoryId: id });
    expect((audit.structured.entries as { action: string }[]).map((entry) => entry.action)).toEqual(['create']);
    expect(store.contents().memories).toHaveLength(1);
  });

  it('keeps tenants apart and reports errors as typed tool results', async () => {
    const { client } = await open();
    const created = await call(client, 'create_memory', { userId: 'alice', content: 'Alice prefers tabs', type: 'ltm' });
    const id = created.structured.memory?.id ?? '';
    const foreign = await call(client, 'get_memory', { userId: 'bob', memoryId: id });
    expect(foreign).toMatchObject({ isError: true, structured: { error: { code: 'NOT_FOUND' } } });

    const stale = await call(client, 'update_memory', { memoryId: id, expectedVersion: 2, content: 'Alice prefers spaces' });
    expect(stale).toMatchObject({ isError: true, structured: { error: { code: 'CONFLICT', data: { currentVersion: 1 } } } });
    const updated = await call(client, 'update_memory', { memoryId: id, expectedVersion: 1, content: 'Alice prefers spaces' });
    expect(updated.structured).toEqual({ memory: { id, version: 2 } });
  });

  it('lets a short-term memory expire with the test clock', async () => {
    const clock = new ManualClock('2026-05-01T10:00:00Z');
    const { client } = await open(clock);
    const note = await call(client, 'create_memory', { content: 'Currently rotating the TLS certificate', type: 'short-term', ttl: 3600 });
    const id = note.structured.memory?.id ?? '';
    expect((await call(client, 'get_memory', { memoryId: id })).isError).toBe(false);
    clock.advance(3600 * 1000);
    expect(await call(client, 'get_memory', { memoryId: id })).toMatchObject({
      isError: true,
      structured: { error: { code: 'NOT_FOUND' } },
    });
    expect((await call(client, 'list_memories', {})).structured).toMatchObject({ memories: [] });
  });
  it('R-FACT-RELATED, R-FACT-ORDER: "I live in Paris", later "I moved to Berlin": remember names Paris, recall and prompt_context put Berlin first', async () => {
    const clock = new ManualClock('2026-05-01T10:00:00Z');
    const { client } = await open(clock);
    const paris = await call(client, 'remember', { content: 'I live in Paris' });
    await call(client, 'remember', { content: 'My favourite tea is sencha' });
    clock.advance(30 * 86_400_000);
    const berlin = await call(client, 'remember', { content: 'I moved to Berlin last month, so I live in Berlin now' });
    const parisId = paris.structured.memoryId as string;
    const berlinId = berlin.structured.memoryId as string;
    expect(berlin.structured.related).toEqual([
      {
        id: parisId,
        content: 'I live in Paris',
        createdAt: '2026-05-01T10:00:00.000Z',
        why: 'changed-fact',
        reason: 'changed fact',
        replacedValues: ['paris'],
      },
    ]);

    const recalled = await call(client, 'recall', { query: 'where do I live?' });
    const results = recalled.structured.results as { id: string; replacedBy?: string; replaces?: string[] }[];
    expect(results.map((result) => result.id)).toEqual([berlinId, parisId]);
    expect(results[0]).toMatchObject({ replaces: [parisId] });
    expect(results[1]).toMatchObject({ replacedBy: berlinId });
    const block = await call(client, 'prompt_context', { query: 'where do I live?' });
    expect(block.structured.memoryIds).toEqual([berlinId, parisId]);
  });

  it('R-FACT-TOPIC, R-FACT-RELATED: "I moved to Berlin" (another verb) names Paris in related and goes first in recall, no supersedes needed', async () => {
    const clock = new ManualClock('2026-05-01T10:00:00Z');
    const { client } = await open(clock);
    const paris = await call(client, 'remember', { content: 'I live in Paris' });
    await call(client, 'remember', { content: 'My favourite tea is sencha' });
    clock.advance(30 * 86_400_000);
    const berlin = await call(client, 'remember', { content: 'I moved to Berlin' });
    const parisId = paris.structured.memoryId as string;
    const berlinId = berlin.structured.memoryId as string;
    expect(berlin.structured.related).toEqual([expect.objectContaining({ id: parisId, why: 'changed-fact', reason: 'changed fact' })]);
    const recalled = await call(client, 'recall', { query: 'where do I live?' });
    const results = recalled.structured.results as { id: string }[];
    expect(results.map((result) => result.id)).toEqual([berlinId, parisId]);
  });

  it('R-FACT-RELATED: "I bought a Tesla" lists "My car is a Golf" with a reason; the agent passes supersedes and recall answers Tesla', async () => {
    const clock = new ManualClock('2026-05-01T10:00:00Z');
    const { client } = await open(clock);
    const golf = await call(client, 'remember', { content: 'My car is a Golf' });
    clock.advance(30 * 86_400_000);
    const tesla = await call(client, 'create_memory', { content: 'I bought a Tesla', type: 'long-term' });
    const golfId = golf.structured.memoryId as string;
    const teslaId = tesla.structured.memory?.id ?? '';
    expect(tesla.structured.related).toEqual([
      expect.objectContaining({ id: golfId, why: 'may-change', reason: 'same owner, a new one acquired' }),
    ]);
    // The write could not decide; the agent, reading related, does.
    const updated = await call(client, 'update_memory', { memoryId: teslaId, expectedVersion: 1, supersedes: [golfId] });
    expect(updated).toMatchObject({ isError: false, structured: { superseded: [{ memoryId: golfId }] } });
    // No embedder here: the question names both, as a full-text search needs.
    const recalled = await call(client, 'recall', { query: 'is my car the Golf or the Tesla?' });
    const ids = (recalled.structured.results as { id: string }[]).map((result) => result.id);
    expect(ids[0]).toBe(teslaId);
    expect(ids).not.toContain(golfId);
  });
});
