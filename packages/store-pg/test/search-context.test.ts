import { type CallContext, createMemoryEngine, FUSION_WEIGHTS, type MemoryEngine, toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { LocalEmbedder } from '@memsvc/embeddings';
import { beforeEach, expect, it } from 'vitest';
import { describeEachStore, itNeeding } from './support/each-store.js';

const alice: CallContext = { tenant: toTenantId('alice'), actor: { id: 'user:alice' } };

describeEachStore('search context of create_memory', (kind) => {
  const clock = new ManualClock('2026-05-01T09:00:00.000Z');
  const embedder = new LocalEmbedder();
  const store = kind.use({ clock, dimensions: embedder.dimensions });
  const itWithStemming = itNeeding(store, 'english-stemming');
  let memories: MemoryEngine;
  const contextOf = async (id: string) => {
    const context = await store.searchContext(id);
    if (context === undefined) throw new Error(`memory ${id} is not stored`);
    return context;
  };
  const lexicalIds = async (query: string) =>
    (await memories.recall(alice, { query, limit: 5 })).results.filter((r) => r.lexicalRank !== undefined).map((r) => r.memory.id);

  beforeEach(async () => {
    await store.reset();
    memories = createMemoryEngine({
      store: store.memories,
      embedder,
      clock,
      fusion: FUSION_WEIGHTS.local,
      grants: store.grants,
      erasures: store.erasures,
    });
  });

  it('indexes the conversation’s two previous turns and the date, finds the answer by the question’s words, returns the content as written', async () => {
    const turn = (n: number, content: string) =>
      memories.create(alice, { tier: 'ltm', content, metadata: { conversationId: 'c-1', turn: n, sessionDate: '2023-05-08' } });
    await turn(0, 'Caroline: Hey Mel, how was the weekend?');
    await turn(1, 'Melanie: We celebrated my daughter’s birthday with a concert!');
    await turn(2, 'Caroline: Wow, what concert was it?');
    const answer = await turn(3, 'Melanie: It was Matt Patterson, so talented. I went yesterday too.');

    const context = await contextOf(answer.memory.id);
    expect(context).toContain('after: Wow, what concert was it?');
    expect(context).toContain('after: We celebrated my daughter’s birthday with a concert!');
    expect(context).not.toContain('Hey Mel');
    expect(context).toContain('8 May 2023');
    expect(context).toContain('7 May 2023'); // "yesterday", resolved
    expect(answer.memory.content).toBe('Melanie: It was Matt Patterson, so talented. I went yesterday too.');
    expect(JSON.stringify(answer.memory)).not.toContain('after:');

    expect(await lexicalIds('Who performed at the concert at the daughter’s birthday?')).toContain(answer.memory.id);
    expect(await lexicalIds('What happened on 7 May 2023?')).toContain(answer.memory.id);
  });

  it('takes the turns before from the metadata’s conversation only, and none for its first turn', async () => {
    const other = await memories.create(alice, {
      tier: 'ltm',
      content: 'unrelated note about invoices',
      metadata: { conversationId: 'c-2', turn: 0 },
    });
    expect(await contextOf(other.memory.id)).toBeNull();
    const first = await memories.create(alice, { tier: 'ltm', content: 'first turn', metadata: { conversationId: 'c-3', turn: 0 } });
    expect(await contextOf(first.memory.id)).toBeNull();
    const second = await memories.create(alice, { tier: 'ltm', content: 'second turn', metadata: { conversationId: 'c-3', turn: 1 } });
    expect(await contextOf(second.memory.id)).toBe('after: first turn');
  });

  it('without a conversation, gives a turn ("Name: …") the memories just before it in its scope and session', async () => {
    await memories.create(alice, { tier: 'ltm', content: 'Ana: We are planning the Lisbon offsite', scope: 'team' });
    await memories.create(alice, { tier: 'ltm', content: 'Ben: Something in another scope', scope: 'other' });
    const next = await memories.create(alice, { tier: 'ltm', content: 'Ben: Flights are booked for June', scope: 'team' });
    expect(await contextOf(next.memory.id)).toBe('after: We are planning the Lisbon offsite; scope team');
    expect(await lexicalIds('When is the Lisbon offsite?')).toContain(next.memory.id);

    // A plain fact is not a turn: it gets no neighbours, and is nobody's neighbour match by accident.
    const fact = await memories.create(alice, { tier: 'ltm', content: 'The invoices live in PostgreSQL', scope: 'team' });
    expect(await contextOf(fact.memory.id)).toBe('scope team');

    clock.advance(31 * 60_000);
    const later = await memories.create(alice, { tier: 'ltm', content: 'Ana: The hotel is the one near the river', scope: 'team' });
    expect(await contextOf(later.memory.id)).toBe('scope team');
  });

  it('places a turn written without a conversation after the turn before it, as ingest places its turns', async () => {
    const plain = (content: string, metadata?: Record<string, unknown>) =>
      memories.create(alice, { tier: 'ltm', content, ...(metadata ? { metadata } : {}) });
    const first = await plain('Ana: We are planning the Lisbon offsite', { channel: 'slack' });
    const second = await plain('Ben: Flights are booked for June');
    const third = await plain('Ana: Great, and the hotel?');
    const place = first.memory.metadata.conversation as { id: string; turn: number };
    expect(first.memory.metadata).toEqual({ channel: 'slack', conversation: { id: place.id, turn: 0 } });
    expect(second.memory.metadata).toEqual({ conversation: { id: place.id, turn: 1 } });
    expect(third.memory.metadata).toEqual({ conversation: { id: place.id, turn: 2 } });

    // A plain fact is in no conversation; a turn after it starts one of its own.
    const fact = await plain('The invoices live in PostgreSQL');
    expect(fact.memory.metadata).toEqual({});
    const afterFact = await plain('Ben: Who owns the invoices?');
    expect(afterFact.memory.metadata.conversation).toEqual({ id: expect.not.stringMatching(place.id), turn: 0 });

    // A caller's own conversation is kept as given, and a turn after a session's gap starts anew.
    const placed = await plain('Ana: Noted', { conversationId: 'c-9', turn: 4 });
    expect(placed.memory.metadata).toEqual({ conversationId: 'c-9', turn: 4 });
    const continued = await plain('Ben: And the budget?');
    expect(continued.memory.metadata.conversation).toEqual({ id: 'c-9', turn: 5 });
    clock.advance(31 * 60_000);
    const later = await plain('Ana: The hotel is the one near the river');
    expect((later.memory.metadata.conversation as { turn: number }).turn).toBe(0);
    expect((await memories.get(alice, later.memory.id)).metadata).toEqual(later.memory.metadata);
  });

  itWithStemming(
    'lifts an answer written turn by turn by the follow-up that matches the question, as it lifts ingested turns',
    async () => {
      const plain = (content: string) => memories.create(alice, { tier: 'ltm', content });
      const other = await plain('John: John here, I bought a new bike today');
      clock.advance(31 * 60_000);
      const answer = await plain('John: I start as assistant manager on Monday');
      const followUp = await plain('Maria: Congrats on the promotion, well deserved!');
      const ranked = (await memories.recall(alice, { query: 'What was John promoted to?', limit: 3 })).results.map((r) => r.memory.id);
      expect(ranked.indexOf(answer.memory.id)).toBeLessThan(ranked.indexOf(other.memory.id));
      expect(ranked).toContain(followUp.memory.id);
    },
  );
});
