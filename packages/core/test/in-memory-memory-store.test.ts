import { describe, expect, it } from 'vitest';
import { bm25Score, LEXICAL_RANKING, type RecallCandidateQuery, toTenantId, writeRules } from '../src/index.js';
import { InMemoryMemoryStore, InMemoryVectorSpace, ManualClock, SequentialIdGenerator, writeMemory } from '../src/testing/index.js';

// The store contract suite (store-pg's describeEachStore suites) runs on this store beside PGlite
// and PostgreSQL. These are the cases that only concern the in-memory store: its own tokenizer,
// its id generator and vector space, and what a test can rely on when it inspects it.

const alice = toTenantId('alice');
const bob = toTenantId('bob');
const actor = { id: 'test' };
const rules = writeRules({
  duplicateThreshold: 0.97,
  contradictionThreshold: 0.8,
  contradictionThresholdMax: 0.97,
  contradictionPolicy: 'flag',
});

const lexicalQuery = (clock: ManualClock, text: string, overrides: Partial<RecallCandidateQuery> = {}): RecallCandidateQuery => ({
  text,
  vector: null,
  perList: 30,
  minSimilarity: 0,
  lexical: LEXICAL_RANKING,
  filters: {},
  now: clock.now(),
  ...overrides,
});

describe('InMemoryMemoryStore', () => {
  it('R-LEX-BM25: scores exactly as core’s bm25Score over the tenant’s statistics, every lowercase word a term', async () => {
    const clock = new ManualClock();
    const store = new InMemoryMemoryStore({ clock });
    const target = await store.insertAsGiven(alice, { tier: 'ltm', content: 'The kayak trip to the lake was the best kayak trip' }, actor);
    await store.insertAsGiven(alice, { tier: 'ltm', content: 'Invoices are stored in PostgreSQL' }, actor);
    const picnic = await store.insertAsGiven(
      alice,
      { tier: 'ltm', content: 'We packed sandwiches for the lake', searchContext: 'lake trip' },
      actor,
    );
    await store.insertAsGiven(bob, { tier: 'ltm', content: 'kayak kayak kayak lake lake' }, actor);
    // No stemming and no stop words: "the" counts, so the target has 11 terms, the picnic 6 and 2 of context.
    const corpus = { documents: 3, averageLength: (11 + 5 + 6 + 0.5 * 2) / 3 };
    const posting = (contentFrequency: number, contextFrequency: number, [contentLength, contextLength]: number[], df: number) => ({
      contentFrequency,
      contextFrequency,
      contentLength: contentLength ?? 0,
      contextLength: contextLength ?? 0,
      documentFrequency: df,
    });
    const found = await store.recallCandidates(alice, lexicalQuery(clock, 'Kayak LAKE'));
    const scoreOf = (id: string) => found.find((candidate) => candidate.memory.id === id)?.lexicalScore;
    expect(scoreOf(target.id)).toBeCloseTo(bm25Score([posting(2, 0, [11, 0], 1), posting(1, 0, [11, 0], 2)], 2, corpus), 12);
    expect(scoreOf(picnic.id)).toBeCloseTo(bm25Score([posting(1, 1, [6, 2], 2)], 2, corpus), 12);
    expect(found.map((candidate) => candidate.lexicalRank)).toEqual([1, 2]);
  });

  it('honours every recall filter: tier, scope (null = unscoped), tags, metadata containment, dates, superseded', async () => {
    const clock = new ManualClock('2026-05-01T09:00:00.000Z');
    const store = new InMemoryMemoryStore({ clock });
    const unscoped = await store.insertAsGiven(
      alice,
      { tier: 'ltm', content: 'deploy notes', tags: ['ops'], metadata: { team: { name: 'x', size: 3 } } },
      actor,
    );
    clock.advance(60_000);
    const scoped = await store.insertAsGiven(
      alice,
      {
        tier: 'stm',
        content: 'deploy notes for x',
        scope: 'x',
        tags: ['ops', 'x'],
        metadata: { list: [1, 2] },
        expiresAt: new Date('2026-05-02'),
      },
      actor,
    );
    const ids = async (filters: RecallCandidateQuery['filters']) =>
      (await store.recallCandidates(alice, lexicalQuery(clock, 'deploy', { filters }))).map((c) => c.memory.id).sort();
    expect(await ids({})).toEqual([unscoped.id, scoped.id].sort());
    expect(await ids({ tier: 'stm' })).toEqual([scoped.id]);
    expect(await ids({ scope: null })).toEqual([unscoped.id]);
    expect(await ids({ scope: 'x' })).toEqual([scoped.id]);
    expect(await ids({ tags: ['ops', 'x'] })).toEqual([scoped.id]);
    expect(await ids({ metadata: { team: { size: 3 } } })).toEqual([unscoped.id]);
    expect(await ids({ metadata: { list: [2] } })).toEqual([scoped.id]);
    expect(await ids({ metadata: { team: { size: 4 } } })).toEqual([]);
    expect(await ids({ createdFrom: scoped.createdAt })).toEqual([scoped.id]);
    expect(await ids({ createdTo: unscoped.createdAt })).toEqual([unscoped.id]);

    const again = await writeMemory(store, alice, { tier: 'ltm', content: 'Deploy  notes' }, actor, rules);
    expect(again).toMatchObject({ decision: { kind: 'collapse', exact: true }, memory: { id: unscoped.id } });
    const superseding = writeRules({
      duplicateThreshold: 0.97,
      contradictionThreshold: 0.5,
      contradictionThresholdMax: 0.97,
      contradictionPolicy: 'supersede',
    });
    await store.setEmbedding(alice, unscoped.id, { vector: [1, 0], model: 'm' });
    const replacing = await writeMemory(
      store,
      alice,
      { tier: 'ltm', content: 'deploy notes, updated', embedding: { vector: [1, 1], model: 'm' } },
      actor,
      superseding,
    );
    expect(replacing.affected.map((memory) => memory.supersededBy)).toEqual([replacing.memory.id]);
    expect(await ids({ scope: null })).toEqual([replacing.memory.id]);
    expect(await ids({ scope: null, includeSuperseded: true })).toEqual([unscoped.id, replacing.memory.id].sort());
  });

  it('hands out copies: changing a returned record or audit entry changes nothing stored', async () => {
    const store = new InMemoryMemoryStore({ clock: new ManualClock() });
    const created = await store.insertAsGiven(alice, { tier: 'ltm', content: 'kept as written', tags: ['a'], metadata: { n: 1 } }, actor);
    (created.tags as string[]).push('b');
    (created.metadata as { n: number }).n = 2;
    const [entry] = await store.auditTrail(alice, created.id, 10);
    (entry?.after as { content: string }).content = 'changed';
    expect(await store.findById(alice, created.id)).toMatchObject({ tags: ['a'], metadata: { n: 1 } });
    expect((await store.auditTrail(alice, created.id, 10))[0]?.after).toMatchObject({ content: 'kept as written' });
  });

  it('keeps each tenant’s rows, audit entries and links apart, also when inspected', async () => {
    const store = new InMemoryMemoryStore({ clock: new ManualClock() });
    const mine = await store.insertAsGiven(alice, { tier: 'ltm', content: 'alice only' }, actor);
    await store.insertAsGiven(bob, { tier: 'ltm', content: 'bob only' }, actor);
    expect(store.contents(alice).memories.map((memory) => memory.content)).toEqual(['alice only']);
    expect(store.contents(bob).audit.every((entry) => entry.memoryId !== mine.id)).toBe(true);
    expect(store.contents().memories).toHaveLength(2);
    expect(await store.auditTrail(bob, mine.id, 10)).toEqual([]);
    expect(await store.readCountingAccess(bob, mine.id)).toBeUndefined();
    await store.recordAccess(bob, [mine.id]);
    expect((await store.findById(alice, mine.id))?.accessCount).toBe(0);
  });

  it('accepts a custom IdGenerator, and takes its own ids as page cursors', async () => {
    let n = 0;
    const store = new InMemoryMemoryStore({ clock: new ManualClock(), ids: { next: () => `m${String(++n).padStart(4, '0')}` } });
    for (let i = 0; i < 3; i++) await store.insertAsGiven(alice, { tier: 'ltm', content: `memory ${i}` }, actor);
    const first = await store.list(alice, { limit: 2 });
    expect(first.items.map((memory) => memory.id)).toEqual(['m0003', 'm0002']);
    const second = await store.list(alice, { limit: 2, cursor: first.nextCursor });
    expect(second).toEqual({ items: [expect.objectContaining({ id: 'm0001' })], nextCursor: undefined });
    await expect(store.list(bob, { limit: 2, cursor: 'm0002' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      data: { field: 'cursor' },
    });
  });

  it('reads precedingMemories from the tenant’s `window` most recent memories only', async () => {
    const clock = new ManualClock();
    const store = new InMemoryMemoryStore({ clock });
    const turn = (n: number) =>
      store.insertAsGiven(alice, { tier: 'ltm', content: `turn ${n}`, metadata: { conversation: { id: 'c', turn: n } } }, actor);
    await turn(0);
    await turn(1);
    for (let i = 0; i < 3; i++) await store.insertAsGiven(alice, { tier: 'ltm', content: `other ${i}` }, actor);
    const query = { count: 2, conversationId: 'c', beforeTurn: 2, scope: null, since: clock.now() };
    expect((await store.precedingMemories(alice, { ...query, window: 5 })).map((m) => m.content)).toEqual(['turn 1', 'turn 0']);
    expect((await store.precedingMemories(alice, { ...query, window: 4 })).map((m) => m.content)).toEqual(['turn 1']);
    expect(await store.precedingMemories(alice, { ...query, beforeTurn: 0, window: 5 })).toEqual([]);
  });
});

describe('SequentialIdGenerator', () => {
  it('makes UUID-shaped ids that increase with every call, even when the clock goes back', () => {
    const clock = new ManualClock('2026-05-01T09:00:00.000Z');
    const ids = new SequentialIdGenerator(clock);
    const made = [ids.next(), ids.next()];
    clock.advance(5);
    made.push(ids.next());
    clock.set('2020-01-01T00:00:00.000Z');
    made.push(ids.next());
    for (const id of made) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(4);
  });
});

describe('InMemoryVectorSpace', () => {
  it('fixes the dimensionality from the first vector and refuses any other size, storing nothing', async () => {
    const space = new InMemoryVectorSpace();
    const store = new InMemoryMemoryStore({ clock: new ManualClock(), vectorSpace: space });
    expect(await space.describe()).toBeUndefined();
    expect(await store.nearest(alice, [1, 0, 0], 5)).toEqual([]);
    await store.insertAsGiven(alice, { tier: 'ltm', content: 'a', embedding: { vector: [1, 0, 0], model: 'm' } }, actor);
    expect(await space.describe()).toEqual({ dimensions: 3, model: 'm', hnswM: null, hnswEfConstruction: null });
    const wrong = store.insertAsGiven(alice, { tier: 'ltm', content: 'b', embedding: { vector: [1, 0], model: 'm' } }, actor);
    await expect(wrong).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH', data: { expected: 3, actual: 2 } });
    await expect(store.nearest(alice, [1, 0], 5)).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH' });
    // A query vector of another size leaves recall to full text, as in the SQL stores.
    expect(
      (await store.recallCandidates(alice, lexicalQuery(new ManualClock(), 'a', { vector: [1, 0] }))).map((c) => c.memory.content),
    ).toEqual(['a']);
    expect(store.contents().memories).toHaveLength(1);
  });

  it('starts fixed when given a size, and refuses sizes the HNSW index cannot hold', async () => {
    const space = new InMemoryVectorSpace({ dimensions: 8, model: 'nomic-embed-text', hnswM: 12 });
    expect(await space.describe()).toEqual({ dimensions: 8, model: 'nomic-embed-text', hnswM: 12, hnswEfConstruction: null });
    await expect(new InMemoryVectorSpace().ensure(2001, 'huge')).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH' });
    await expect(space.ensure(3, null)).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH' });
  });
});
