import { type CallContext, createMemoryEngine, FUSION_WEIGHTS, isMemsvcError, type MemoryEngine, toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { LocalEmbedder } from '@memsvc/embeddings';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { codeOf } from './support/code-of.js';
import { describeEachStore, itNeeding } from './support/each-store.js';

const alice: CallContext = { tenant: toTenantId('alice'), actor: { id: 'user:alice' } };

describeEachStore('context and agent-memory tools', (kind) => {
  const clock = new ManualClock('2026-05-01T09:00:00.000Z');
  const store = kind.use({ clock, dimensions: 384 });
  const itWithStemming = itNeeding(store, 'english-stemming');
  let memories: MemoryEngine;

  beforeEach(async () => {
    await store.reset();
    clock.set('2026-05-01T09:00:00.000Z');
    memories = createMemoryEngine({
      store: store.memories,
      embedder: new LocalEmbedder(),
      clock,
      fusion: FUSION_WEIGHTS.local,
      grants: store.grants,
      erasures: store.erasures,
    });
  });

  it('remember picks the tier, and reports a duplicate exactly when nothing new was stored', async () => {
    const note = await memories.remember(alice, { content: 'Currently migrating the billing database' });
    expect(note).toMatchObject({ resolvedType: 'stm', wasDeduped: false, outcome: 'created' });
    const fact = await memories.remember(alice, { content: 'The billing database is PostgreSQL 15' });
    expect(fact).toMatchObject({ resolvedType: 'ltm', wasDeduped: false });
    const again = await memories.remember(alice, { content: 'the billing database is postgresql 15 ' });
    expect(again).toMatchObject({ wasDeduped: true, outcome: 'duplicate' });
    expect(again.memory.id).toBe(fact.memory.id);
    // A caller cannot fake the flag through metadata.
    const faked = await memories.remember(alice, { content: 'Dana uses Helix', metadata: { duplicateMatches: ['x'] } });
    expect(faked.wasDeduped).toBe(false);
  });

  // "peanut allergy" finds "allergic to peanuts" through English stemming.
  itWithStemming('forget previews by default, deletes on confirm, audits, and restore brings the memory back', async () => {
    const { memory } = await memories.create(alice, { tier: 'ltm', content: 'Alice is allergic to peanuts' });
    await memories.create(alice, { tier: 'ltm', content: 'The office wifi password rotates monthly' });
    const preview = await memories.forget(alice, { query: 'peanut allergy' });
    expect(preview).toMatchObject({ dryRun: true, deleted: [] });
    expect(preview.candidates.map((c) => c.memoryId)).toEqual([memory.id]);
    expect((await memories.getUncounted(alice, memory.id)).deletedAt).toBeNull();
    const done = await memories.forget(alice, { query: 'peanut allergy', confirm: true });
    expect(done).toMatchObject({ dryRun: false, deleted: [memory.id] });
    expect(await codeOf(memories.get(alice, memory.id))).toBe('NOT_FOUND');
    expect((await memories.audit(alice, memory.id))[0]?.action).toBe('delete');
    expect((await memories.restore(alice, memory.id)).content).toBe('Alice is allergic to peanuts');
    expect((await memories.forget(alice, { memoryId: memory.id, confirm: true })).deleted).toEqual([memory.id]);
    expect(await codeOf(memories.forget(alice, {}))).toBe('INVALID_INPUT');
    expect(await codeOf(memories.forget(alice, { memoryId: memory.id, query: 'x' }))).toBe('INVALID_INPUT');
  });

  it('load_context gives recent then important memories of both tiers, without superseded ones, within budget', async () => {
    const important = await memories.create(alice, {
      tier: 'ltm',
      content: 'Never deploy billing on Fridays',
      importance: 1,
      pinned: true,
    });
    for (let i = 0; i < 8; i++) {
      clock.advance(1000);
      await memories.create(alice, { tier: 'ltm', content: `Routine standup note ${i} about ticket ${100 + i}`, importance: 0.1 });
    }
    clock.advance(1000);
    const current = await memories.create(alice, { tier: 'stm', content: 'Currently on call for the payments team', ttlSeconds: 3600 });
    const block = await memories.loadContext(alice, { recentLimit: 2, importantLimit: 1, maxChars: 2000 });
    expect(block.memoryIds).toEqual([current.memory.id, expect.any(String), important.memory.id]);
    expect(block.text).toContain('(short-term)');
    expect(block.charCount).toBeLessThanOrEqual(2000);
    expect(await codeOf(memories.loadContext(alice, { maxChars: 100 }))).toBe('INVALID_INPUT');
    expect(await codeOf(memories.loadContext(alice, { recentLimit: 21 }))).toBe('INVALID_INPUT');
  });

  it('prompt_context and compress_context pack recall hits in rank order within their budgets, and refuse absurd budgets', async () => {
    const words = ['amber', 'basalt', 'cedar', 'dune', 'ember', 'fjord', 'granite', 'harbor', 'island', 'juniper', 'kelp', 'lagoon'];
    for (let i = 0; i < 30; i++) {
      // Distinct enough not to collapse as near-duplicates, long enough to overflow the budget.
      const detail = Array.from({ length: 25 }, (_, j) => `${words[(i * 7 + j * 5) % words.length]}${(i * 31 + j) % 97}`).join(' ');
      await memories.create(alice, { tier: 'ltm', content: `Kubernetes autoscaling note ${i}: ${detail}` });
    }
    await memories.create(alice, { tier: 'ltm', content: 'Lunch is at noon' });
    const prompt = await memories.promptContext(alice, { query: 'kubernetes autoscaling', tokenBudget: 300 });
    expect(prompt.estimatedTokens).toBeLessThanOrEqual(300);
    expect(prompt.truncated).toBe(true);
    expect(prompt.candidatesFound).toBeGreaterThan(prompt.memoryIds.length);
    const compressed = await memories.compressContext(alice, { query: 'kubernetes autoscaling', maxChars: 1000 });
    expect(compressed.charCount).toBeLessThanOrEqual(1000);
    expect(compressed.text).not.toContain('Lunch');
    expect(await codeOf(memories.promptContext(alice, { query: 'x', tokenBudget: 0 }))).toBe('INVALID_INPUT');
    expect(await codeOf(memories.promptContext(alice, { query: 'x', tokenBudget: 1e9 }))).toBe('INVALID_INPUT');
    expect(await codeOf(memories.compressContext(alice, { query: 'x', maxChars: 40_000 }))).toBe('INVALID_INPUT');
    expect((await memories.promptContext(alice, { query: 'quantum chromodynamics' })).text).toBe('(no memories)');
  });

  it('reflect digests the relevant memories deterministically: themes, sources, date range', async () => {
    await memories.create(alice, { tier: 'ltm', content: 'Atlas billing runs on PostgreSQL 15', tags: ['atlas', 'infra'] });
    clock.advance(86_400_000);
    await memories.create(alice, { tier: 'ltm', content: 'Atlas billing deploys to eu-west-1', tags: ['atlas', 'deploy'] });
    await memories.create(alice, { tier: 'ltm', content: 'Lunch is at noon', tags: ['office'] });
    const first = await memories.reflect(alice, { query: 'atlas billing' });
    expect(first.memoryCount).toBe(2);
    expect(first.themes[0]).toBe('atlas');
    expect(first.themes).toContain('billing');
    expect(first.dateRange).toEqual({ earliest: '2026-05-01T09:00:00.000Z', latest: '2026-05-02T09:00:00.000Z' });
    expect(await memories.reflect(alice, { query: 'atlas billing' })).toEqual(first);
    expect(await memories.reflect(alice, { query: 'submarine' })).toMatchObject({ memoryCount: 0, themes: [], dateRange: null });
  });
});

describeEachStore('ingest_conversation', (kind) => {
  const clock = new ManualClock('2026-05-01T09:00:00.000Z');
  const store = kind.use({ clock, dimensions: 384 });
  let memories: MemoryEngine;
  const turns = [
    { role: 'user', content: 'Which port does the staging database listen on?' },
    { role: 'assistant', content: '5433, because 5432 is still taken by the legacy cluster.' },
    { role: 'user', content: 'Thanks. Also, who approves production deploys?' },
    { role: 'assistant', content: 'Mira approves them, or Luca when she is away.' },
  ];

  beforeAll(async () => {
    memories = createMemoryEngine({
      store: store.memories,
      embedder: new LocalEmbedder(),
      clock,
      fusion: FUSION_WEIGHTS.local,
      grants: store.grants,
      erasures: store.erasures,
    });
  });

  it('stores turns with provenance, finds an answer by its question, and adds nothing on a re-ingest', async () => {
    const first = await memories.ingestConversation(alice, { turns, date: new Date('2026-04-30T15:00:00Z'), tags: ['chat'] });
    expect(first).toMatchObject({ ingested: 4, skipped: 0, total: 4 });
    expect(first.conversationId).toMatch(/^conv-[0-9a-f]{16}$/);
    const answer = await memories.getUncounted(alice, first.memoryIds[1] ?? '');
    expect(answer.content).toBe('assistant: 5433, because 5432 is still taken by the legacy cluster.');
    expect(answer.metadata).toEqual({
      conversation: { id: first.conversationId, turn: 1, chunk: 0, role: 'assistant', date: '2026-04-30' },
    });

    // "staging", "database" and "port" appear only in the question; the answer is found through its context.
    const { results } = await memories.recall(alice, { query: 'staging database port' });
    expect(results.slice(0, 2).map((r) => r.memory.id)).toContain(first.memoryIds[1]);
    const approver = await memories.recall(alice, { query: 'who approves production deploys', limit: 2 });
    expect(approver.results.map((r) => r.memory.id)).toContain(first.memoryIds[3]);

    const again = await memories.ingestConversation(alice, { turns, date: new Date('2026-04-30T15:00:00Z'), tags: ['chat'] });
    expect(again).toMatchObject({ conversationId: first.conversationId, ingested: 0, skipped: 4, memoryIds: first.memoryIds });
  });

  it('lifts an answer by the turns that follow it, and forget still judges each memory by its own match', async () => {
    const chat = await memories.ingestConversation(alice, {
      conversationId: 'promotion-chat',
      date: new Date('2026-04-29T10:00:00Z'),
      turns: [
        { role: 'Maria', content: 'How did the interview go?' },
        { role: 'John', content: 'I start as assistant manager on Monday.' },
        { role: 'Maria', content: 'Congrats on the promotion! That promotion was well deserved.' },
        { role: 'John', content: 'Thanks, the promotion took two years of work.' },
      ],
    });
    const answerId = chat.memoryIds[1];
    const { results } = await memories.recall(alice, { query: 'What was John promoted to?', limit: 10 });
    const answer = results.find((result) => result.memory.id === answerId);
    expect(answer).toBeDefined();
    expect(answer?.score).toBeGreaterThan(answer?.matchScore ?? 1);
    for (let i = 1; i < results.length; i++) expect(results[i - 1]?.score).toBeGreaterThanOrEqual(results[i]?.score ?? 0);

    // A threshold between the answer's own match and its lifted score: forget leaves it alone.
    const between = ((answer?.matchScore ?? 0) + (answer?.score ?? 0)) / 2;
    const preview = await memories.forget(alice, { query: 'What was John promoted to?', minScore: between, limit: 20 });
    expect(preview.candidates.map((candidate) => candidate.memoryId)).not.toContain(answerId);
    for (const candidate of preview.candidates) expect(candidate.score).toBeGreaterThanOrEqual(Math.floor(between * 10_000) / 10_000);
  });

  it('splits a long turn at paragraphs, and refuses bad turns naming the field', async () => {
    const paragraph = 'word '.repeat(1500).trim();
    const long = await memories.ingestConversation(alice, {
      turns: [{ role: 'user', content: `${paragraph}\n\n${paragraph}` }],
      conversationId: 'long-1',
    });
    expect(long).toMatchObject({ conversationId: 'long-1', total: 2 });
    const error = await memories
      .ingestConversation(alice, { turns: [{ role: 'user', content: '   ' }] })
      .catch((caught: unknown) => caught);
    expect(isMemsvcError(error) && error.data).toEqual({ field: 'turns.0.content' });
    expect(await codeOf(memories.ingestConversation(alice, { turns: [] }))).toBe('INVALID_INPUT');
  });
});
