import {
  type CallContext,
  createMemoryEngine,
  FUSION_WEIGHTS,
  fusionContextOf,
  type MemoryEngine,
  recallScore,
  toTenantId,
} from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { LocalEmbedder } from '@memsvc/embeddings';
import { beforeEach, expect, it } from 'vitest';
import { codeOf } from './support/code-of.js';
import { describeEachEngine } from './support/each-engine.js';
import { describeEachStore, itNeeding } from './support/each-store.js';
import { openTestStore } from './support/open-test-store.js';

const context = (tenant: string): CallContext => ({ tenant: toTenantId(tenant), actor: { id: `user:${tenant}` } });
const alice = context('alice');
const bob = context('bob');

describeEachStore('recall', (kind) => {
  const clock = new ManualClock('2026-05-01T09:00:00.000Z');
  const embedder = new LocalEmbedder();
  const store = kind.use({ clock, dimensions: embedder.dimensions });
  const itWithStemming = itNeeding(store, 'english-stemming');
  let memories: MemoryEngine;
  const ids: Record<string, string> = {};

  const remember = async (who: CallContext, key: string, content: string, extra: Partial<Parameters<MemoryEngine['create']>[1]> = {}) => {
    ids[key] = (await memories.create(who, { tier: 'ltm', content, ...extra })).memory.id;
  };

  beforeEach(async () => {
    await store.reset();
    clock.set('2026-05-01T09:00:00.000Z');
    memories = createMemoryEngine({
      store: store.memories,
      embedder,
      clock,
      fusion: FUSION_WEIGHTS.local,
      grants: store.grants,
      erasures: store.erasures,
    });
    await remember(alice, 'deploy', 'Production deploys go to the eu-west-1 region every Tuesday', { tags: ['ops', 'deploy'] });
    await remember(alice, 'coffee', 'Alice drinks her coffee black, no sugar', { tags: ['personal'] });
    await remember(alice, 'database', 'The billing service stores invoices in PostgreSQL 15', {
      tags: ['ops'],
      metadata: { team: 'billing' },
    });
    await remember(alice, 'note', 'Deploying on Fridays is forbidden after the March outage', {
      tags: ['ops', 'deploy'],
      scope: 'project-x',
    });
    clock.advance(60_000);
    await remember(alice, 'trip', 'Alice flies to Lisbon on 12 June for the conference', { tags: ['travel'] });
    await remember(bob, 'bob-deploy', 'Bob deploys the mobile app to the eu-west-1 region');
  });

  itWithStemming('finds memories by full text with stemming (deploys ~ deploying) and by the vector list, best first', async () => {
    const { results, semantic, vector } = await memories.recall(alice, { query: 'Where do production deploys go?' });
    // The local embedder's query vector ranked it, but it hashes words: not semantic.
    expect({ vector, semantic }).toEqual({ vector: true, semantic: false });
    expect(results[0]?.memory.id).toBe(ids.deploy);
    expect(results[0]).toMatchObject({ lexicalRank: 1, vectorRank: 1 });
    expect(results.map((r) => r.memory.id)).toContain(ids.note); // "deploying" stems to "deploy"
    for (let i = 1; i < results.length; i++) expect(results[i - 1]?.score).toBeGreaterThanOrEqual(results[i]?.score ?? 0);
  });

  it('ranks exactly by the core formula over the ranks the SQL returned', async () => {
    const { results } = await memories.recall(alice, { query: 'deploys region Tuesday PostgreSQL' });
    expect(results.length).toBeGreaterThan(1);
    const context = fusionContextOf(results);
    expect(context.bestLexicalScore).toBeGreaterThan(0);
    for (const result of results) expect(result.score).toBeCloseTo(recallScore(result, FUSION_WEIGHTS.local, clock.now(), context), 12);
  });

  it('weighs the lists for the local embedder when the engine is not told how (library default)', async () => {
    const unconfigured = createMemoryEngine({ store: store.memories, embedder, clock, grants: store.grants, erasures: store.erasures });
    const { results } = await unconfigured.recall(alice, { query: 'deploys region Tuesday PostgreSQL' });
    expect(results.length).toBeGreaterThan(1);
    const context = fusionContextOf(results);
    for (const result of results) expect(result.score).toBeCloseTo(recallScore(result, FUSION_WEIGHTS.local, clock.now(), context), 12);
  });

  it('handles names and numbers: an entity and a figure find their memory', async () => {
    expect((await memories.recall(alice, { query: 'Lisbon' })).results[0]?.memory.id).toBe(ids.trip);
    expect((await memories.recall(alice, { query: 'postgresql 15' })).results[0]?.memory.id).toBe(ids.database);
    expect((await memories.recall(alice, { query: 'eu-west-1' })).results[0]?.memory.id).toBe(ids.deploy);
  });

  it('never returns another tenant’s memories', async () => {
    const { results } = await memories.recall(bob, { query: 'deploys eu-west-1 region' });
    expect(results.map((r) => r.memory.id)).toEqual([ids['bob-deploy']]);
  });

  it('filters by tags (all of them), scope, tier, metadata and creation time', async () => {
    const ids_ = async (input: Parameters<MemoryEngine['recall']>[1]) =>
      (await memories.recall(alice, input)).results.map((r) => r.memory.id);
    expect(await ids_({ query: 'deploy', tags: ['ops', 'deploy'] })).toEqual(expect.arrayContaining([ids.deploy, ids.note]));
    expect(await ids_({ query: 'deploy invoices', tags: ['ops', 'deploy'] })).not.toContain(ids.database);
    expect(await ids_({ query: 'deploy', scope: 'project-x' })).toEqual([ids.note]);
    expect(await ids_({ query: 'invoices billing', metadata: { team: 'billing' } })).toEqual([ids.database]);
    expect(await ids_({ query: 'invoices billing', metadata: { team: 'mobile' } })).toEqual([]);
    expect(await ids_({ query: 'Alice Lisbon coffee', createdFrom: new Date('2026-05-01T09:00:30Z') })).toEqual([ids.trip]);
    expect(await ids_({ query: 'Alice Lisbon coffee', createdTo: new Date('2026-05-01T09:00:30Z') })).toEqual([ids.coffee]);
    expect(await ids_({ query: 'deploy', tier: 'stm' })).toEqual([]);
  });

  it('searches short-term memories too, but never expired ones', async () => {
    await memories.create(alice, { tier: 'stm', content: 'Currently rotating the staging TLS certificate', ttlSeconds: 3600 });
    expect((await memories.recall(alice, { query: 'TLS certificate' })).results[0]?.memory.tier).toBe('stm');
    clock.advance(3601_000);
    expect((await memories.recall(alice, { query: 'TLS certificate' })).results).toEqual([]);
  });

  it('hides superseded memories unless asked, and returns contradicted ones with their marker', async () => {
    const superseding = createMemoryEngine({
      store: store.memories,
      embedder,
      clock,
      fusion: FUSION_WEIGHTS.local,
      settings: {
        similarity: {
          duplicateThreshold: 0.97,
          contradictionThreshold: 0.5,
          contradictionThresholdMax: 0.97,
          contradictionPolicy: 'supersede',
        },
        importanceHalfLifeDays: 14,
      },
      grants: store.grants,
      erasures: store.erasures,
    });
    const newer = await superseding.create(alice, {
      tier: 'ltm',
      content: 'Production deploys go to the eu-central-1 region every Tuesday',
    });
    expect(newer.contradictions.map((c) => c.memoryId)).toContain(ids.deploy);
    const visible = (await memories.recall(alice, { query: 'production deploys region' })).results.map((r) => r.memory.id);
    expect(visible).toContain(newer.memory.id);
    expect(visible).not.toContain(ids.deploy);
    const all = await memories.recall(alice, { query: 'production deploys region', includeSuperseded: true });
    expect(all.results.find((r) => r.memory.id === ids.deploy)?.memory.supersededBy).toBe(newer.memory.id);

    const flagged = await memories.create(alice, { tier: 'ltm', content: 'Alice drinks her coffee with milk, no sugar' });
    if (flagged.contradictions.length > 0) {
      const hit = (await memories.recall(alice, { query: 'coffee sugar' })).results.find((r) => r.memory.id === ids.coffee);
      expect(hit?.memory.contradicted).toBe(true);
    }
  });

  it('still answers from full text when the embedder is down', async () => {
    const lexicalOnly = createMemoryEngine({
      store: store.memories,
      embedder: { model: 'memsvc-local-v1', embed: async () => undefined },
      clock,
      fusion: FUSION_WEIGHTS.local,
      grants: store.grants,
      erasures: store.erasures,
    });
    const { results, semantic } = await lexicalOnly.recall(alice, { query: 'coffee' });
    expect(semantic).toBe(false);
    expect(results[0]).toMatchObject({ memory: { id: ids.coffee }, vectorRank: undefined, lexicalRank: 1 });
  });

  it('counts an access for every memory it returns, after answering', async () => {
    await memories.recall(alice, { query: 'Lisbon conference' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await store.memories.findById(alice.tenant, ids.trip ?? ''))?.accessCount).toBe(1);
  });

  it('accepts other scripts and symbols, and rejects bad input with INVALID_INPUT naming the field', async () => {
    await remember(alice, 'cjk', '東京のオフィスは渋谷にあります 🚀');
    expect((await memories.recall(alice, { query: '東京のオフィス' })).results.map((r) => r.memory.id)).toContain(ids.cjk);
    expect((await memories.recall(alice, { query: '🚀🚀' })).results).toBeDefined();
    expect(await codeOf(memories.recall(alice, { query: '   ' }))).toBe('INVALID_INPUT');
    expect(await codeOf(memories.recall(alice, { query: 'x'.repeat(2049) }))).toBe('INVALID_INPUT');
    expect(await codeOf(memories.recall(alice, { query: 'x', limit: 0 }))).toBe('INVALID_INPUT');
    expect(await codeOf(memories.recall(alice, { query: 'x', limit: 51 }))).toBe('INVALID_INPUT');
    expect(await codeOf(memories.recall(alice, { query: 'x', createdFrom: new Date('nope') }))).toBe('INVALID_INPUT');
    expect(
      await codeOf(memories.recall(alice, { query: 'x', createdFrom: new Date('2026-02-01'), createdTo: new Date('2026-01-01') })),
    ).toBe('INVALID_INPUT');
    expect(await codeOf(memories.recall(alice, { query: 'x', metadata: 'not an object' }))).toBe('INVALID_INPUT');
  });
});

describeEachEngine('recall on a database', (engine) => {
  const clock = new ManualClock('2026-05-01T09:00:00.000Z');
  const embedder = new LocalEmbedder();

  it('writes the access counts of a recall before the store closes', async () => {
    const url = await engine.freshDatabaseUrl({ reopenable: true });
    let own = await openTestStore({ database: url, clock, vector: { dimensions: embedder.dimensions } });
    const engineOnOwn = createMemoryEngine({
      store: own.memories,
      embedder,
      clock,
      fusion: FUSION_WEIGHTS.local,
      grants: own.grants,
      erasures: own.erasures,
    });
    const created = await engineOnOwn.create(alice, { tier: 'ltm', content: 'The archive lives on tape in Lisbon' });
    await engineOnOwn.recall(alice, { query: 'archive tape' });
    await own.close(); // right away: the count is still pending
    own = await openTestStore({ database: url, clock, vector: { dimensions: embedder.dimensions } });
    expect((await own.memories.findById(alice.tenant, created.memory.id))?.accessCount).toBe(1);
    await own.close();
  });
});
