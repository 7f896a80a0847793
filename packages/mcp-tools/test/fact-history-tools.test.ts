import { InMemoryMemoryStore, inMemoryEngine, ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { connectedClient } from './connected-client.js';

/** `supersedes` and `asOf` as an agent uses them: each tool through the SDK's linked in-memory transport pair. */
describe('supersedes and asOf through the tools', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  const open = async () => {
    const clock = new ManualClock('2026-05-01T10:00:00Z');
    const store = new InMemoryMemoryStore({ clock });
    const engine = inMemoryEngine(store, { embedder: new StaticEmbedder({}, undefined), clock });
    const client = await connectedClient(engine, clock);
    closers.push(() => client.close());
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      return {
        isError: result.isError === true,
        structured: result.structuredContent as Record<string, unknown> & { memory?: { id: string } },
      };
    };
    return { clock, store, call };
  };

  it(verifies('R-SUPERSEDES-RETIRE', 'create_memory takes supersedes and reports what it retired'), async () => {
    const { call } = await open();
    const old = await call('create_memory', { content: 'I live in Paris', type: 'long-term' });
    const id = old.structured.memory?.id ?? '';
    const created = await call('create_memory', {
      content: 'I moved to Berlin, I live in Berlin now',
      type: 'long-term',
      supersedes: [id],
    });
    expect(created).toMatchObject({ isError: false, structured: { outcome: 'created', superseded: [{ memoryId: id, version: 2 }] } });
    const listed = await call('list_memories', {});
    expect((listed.structured.memories as { id: string }[]).map((memory) => memory.id)).toEqual([created.structured.memory?.id]);
  });

  it(verifies('R-SUPERSEDES-LIMIT', 'remember refuses 1,000 ids as INVALID_INPUT naming supersedes, and stores nothing'), async () => {
    const { call, store } = await open();
    const ids = Array.from({ length: 1000 }, (_, i) => `id-${i}`);
    const refused = await call('remember', { content: 'A new fact', supersedes: ids });
    expect(refused).toMatchObject({ isError: true, structured: { error: { code: 'INVALID_INPUT', data: { field: 'supersedes' } } } });
    const unknown = await call('remember', { content: 'A new fact', supersedes: ['01900000-0000-7000-8000-000000000000'] });
    expect(unknown).toMatchObject({ isError: true, structured: { error: { code: 'INVALID_INPUT', data: { field: 'supersedes' } } } });
    expect(store.contents().memories).toHaveLength(0);
    const old = await call('remember', { content: 'My manager is Dana' });
    const changed = await call('remember', { content: 'My manager is Kim since March', supersedes: [old.structured.memoryId] });
    expect(changed.structured).toMatchObject({ wasDeduped: false, superseded: [{ memoryId: old.structured.memoryId, version: 2 }] });
  });

  it(verifies('R-SUPERSEDES-SELF', 'update_memory takes supersedes, and refuses its own id with nothing changed'), async () => {
    const { call } = await open();
    const a = await call('create_memory', { content: 'The API port is 8080', type: 'ltm' });
    const b = await call('create_memory', { content: 'Port of the API: 8081', type: 'ltm' });
    const aId = a.structured.memory?.id ?? '';
    const bId = b.structured.memory?.id ?? '';
    const self = await call('update_memory', { memoryId: aId, expectedVersion: 1, content: 'The API port is 9090', supersedes: [aId] });
    expect(self).toMatchObject({ isError: true, structured: { error: { code: 'INVALID_INPUT', data: { field: 'supersedes' } } } });
    expect((await call('get_memory', { memoryId: aId })).structured.memory).toMatchObject({ content: 'The API port is 8080', version: 1 });
    const updated = await call('update_memory', { memoryId: aId, expectedVersion: 1, content: 'The API port is 9090', supersedes: [bId] });
    expect(updated.structured).toMatchObject({ memory: { version: 2 }, superseded: [{ memoryId: bId, version: 2 }] });
  });

  it(verifies('R-ASOF-VERSIONS', 'recall, get_memory and list_memories take asOf and answer from the versions of then'), async () => {
    const { call, clock } = await open();
    const created = await call('create_memory', { content: "Bob's editor is vim", type: 'ltm' });
    const id = created.structured.memory?.id ?? '';
    clock.set('2026-05-01T11:00:00Z');
    await call('create_memory', { content: "Bob's editor is now emacs", type: 'ltm', supersedes: [id] });
    clock.set('2026-05-01T12:00:00Z');
    const asOf = '2026-05-01T10:30:00Z';
    const recalled = await call('recall', { query: "What is Bob's editor?", asOf });
    expect(recalled.structured).toMatchObject({ count: 1, results: [{ id, text: "Bob's editor is vim" }] });
    expect(recalled.structured.asOf).toEqual({ at: '2026-05-01T10:30:00.000Z', unavailable: 0, truncated: false });
    const read = await call('get_memory', { memoryId: id, asOf });
    expect(read.structured).toMatchObject({ found: true, memory: { supersededBy: null, version: 1 } });
    const listed = await call('list_memories', { asOf });
    expect((listed.structured.memories as { id: string }[]).map((memory) => memory.id)).toEqual([id]);
  });

  it(verifies('R-ASOF-INPUT', 'asOf malformed, in the future or before the first memory: INVALID_INPUT naming asOf'), async () => {
    const { call } = await open();
    await call('create_memory', { content: 'Standup is at 10:00', type: 'ltm' });
    for (const asOf of ['yesterday', '2026-05-01T10:00:01Z', '2026-04-30']) {
      for (const [tool, args] of [
        ['recall', { query: 'standup' }],
        ['list_memories', {}],
        ['get_memory', { memoryId: '01900000-0000-7000-8000-000000000000' }],
      ] as const) {
        const refused = await call(tool, { ...args, asOf });
        expect(refused).toMatchObject({ isError: true, structured: { error: { code: 'INVALID_INPUT', data: { field: 'asOf' } } } });
      }
    }
    // The moment of the first memory itself is a valid asOf: the refusals above are about the moment, not the argument.
    const valid = await call('list_memories', { asOf: '2026-05-01T10:00:00Z' });
    expect(valid).toMatchObject({ isError: false, structured: { memories: [{ content: 'Standup is at 10:00' }] } });
  });
});
