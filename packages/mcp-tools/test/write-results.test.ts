import { InMemoryMemoryStore, inMemoryEngine, ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { connectedClient } from './connected-client.js';

type Structured = Record<string, unknown> & { memory?: Record<string, unknown> & { id: string; version: number } };

/** Every null, at any depth, by its path: a lean result has none. */
function nullsIn(value: unknown, path = ''): string[] {
  if (value === null) return [path];
  if (typeof value !== 'object') return [];
  return Object.entries(value as object).flatMap(([key, inner]) => nullsIn(inner, `${path}.${key}`));
}

/**
 * What an agent reads from a write (issue 53 #5), through the SDK's linked in-memory transport
 * pair: the id, the version, the decision and only the marks that apply — never the whole record,
 * never a null; and `related` on an update that changes the content (issue 53 #4).
 */
describe('write results through the tools', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  const open = async (embedder = new StaticEmbedder({}, undefined)) => {
    const clock = new ManualClock('2026-05-01T10:00:00Z');
    const store = new InMemoryMemoryStore({ clock });
    const engine = inMemoryEngine(store, { embedder, clock });
    const client = await connectedClient(engine, clock);
    closers.push(() => client.close());
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, JSON.stringify(result.structuredContent)).not.toBe(true);
      // The text half is the same JSON: a client reading only text gets the same lean result.
      expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? '')).toEqual(result.structuredContent);
      return result.structuredContent as Structured;
    };
    return { clock, call };
  };

  it('create_memory and remember: the id, version and decision, the lists only when they name something, no nulls', async () => {
    const { call } = await open();
    const created = await call('create_memory', {
      content: 'The staging database listens on port 5433',
      type: 'long-term',
      tags: ['infra'],
    });
    const id = created.memory?.id;
    expect(created).toEqual({ outcome: 'created', wasDeduped: false, memory: { id, version: 1 }, embedded: false });

    const again = await call('create_memory', { content: 'the staging database listens on port 5433 ', type: 'long-term' });
    // An exact duplicate says what the caller wrote: its text is not sent back.
    expect(again).toEqual({
      outcome: 'duplicate',
      wasDeduped: true,
      memory: { id, version: 1 },
      duplicate: { similarity: 1, exact: true },
      embedded: false,
    });

    const note = await call('remember', { content: 'Currently rotating the TLS certificate' });
    expect(note).toEqual({
      memoryId: note.memory?.id,
      resolvedType: 'short-term',
      outcome: 'created',
      wasDeduped: false,
      memory: { id: note.memory?.id, version: 1, type: 'short-term', expiresAt: '2026-05-02T10:00:00.000Z' },
    });
    for (const result of [created, again, note]) expect(nullsIn(result)).toEqual([]);
  });

  it('R-DUP-1: a near-duplicate sends back the text of the memory it collapsed into: it is not what the caller wrote', async () => {
    const same = [0.6, 0.8, 0];
    const { call } = await open(new StaticEmbedder({ 'Deploys go out on Tuesdays': same, 'We deploy every Tuesday': same }));
    const first = await call('create_memory', { content: 'Deploys go out on Tuesdays', type: 'long-term' });
    const again = await call('remember', { content: 'We deploy every Tuesday' });
    expect(again).toEqual({
      memoryId: first.memory?.id,
      resolvedType: 'long-term',
      outcome: 'duplicate',
      wasDeduped: true,
      memory: { id: first.memory?.id, version: 1, content: 'Deploys go out on Tuesdays' },
      duplicate: { similarity: 1, exact: false },
    });
  });

  it('R-FACT-RELATED: update_memory with new content returns related, with reasons; an update of tags or metadata returns none', async () => {
    const { clock, call } = await open();
    const golf = await call('remember', { content: 'My car is a Golf' });
    const golfId = golf.memoryId as string;
    const note = await call('remember', { content: 'I like green tea' });
    const noteId = note.memoryId as string;
    clock.advance(30 * 86_400_000);

    const bought = await call('update_memory', { memoryId: noteId, expectedVersion: 1, content: 'I bought a Tesla' });
    expect(bought).toEqual({
      memory: { id: noteId, version: 2 },
      related: [
        {
          id: golfId,
          content: 'My car is a Golf',
          createdAt: '2026-05-01T10:00:00.000Z',
          why: 'may-change',
          reason: 'same owner, a new one acquired',
        },
      ],
    });
    // Unlike a create, the update marks nothing: the agent decides, with supersedes.
    expect((await call('get_memory', { memoryId: golfId })).memory).toMatchObject({ replacedBy: null, supersededBy: null });

    // An absent list is an empty one: a retag says nothing new, so nothing is related.
    const retagged = await call('update_memory', { memoryId: noteId, expectedVersion: 2, tags: ['car'], metadata: { from: 'chat' } });
    expect(retagged).toEqual({ memory: { id: noteId, version: 3 } });

    const retired = await call('update_memory', { memoryId: noteId, expectedVersion: 3, supersedes: [golfId] });
    expect(retired).toEqual({ memory: { id: noteId, version: 4 }, superseded: [{ memoryId: golfId, version: 2 }] });
  });

  it('restore_memory sends back the text it brought back; promote_memory and reembed_memory the id and version', async () => {
    const { call } = await open();
    const created = await call('create_memory', { content: 'The office opens at 8', type: 'long-term' });
    const id = created.memory?.id as string;
    await call('update_memory', { memoryId: id, expectedVersion: 1, content: 'The office opens at 9' });
    const restored = await call('restore_memory', { memoryId: id, version: 1 });
    expect(restored).toEqual({ restored: true, memory: { id, version: 3, content: 'The office opens at 8' } });

    const note = await call('create_memory', { content: 'Currently on call this week', type: 'short-term' });
    const noteId = note.memory?.id as string;
    const promoted = await call('promote_memory', { memoryId: noteId });
    expect(promoted).toEqual({ promoted: true, outcome: 'promoted', memory: { id: noteId, version: 2 } });
    for (const result of [restored, promoted]) expect(nullsIn(result)).toEqual([]);
  });
});
