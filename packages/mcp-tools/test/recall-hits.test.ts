import { type MemoryEngine, PASSAGES, toTenantId } from '@memsvc/core';
import { InMemoryMemoryStore, inMemoryEngine, ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { connectedClient } from './connected-client.js';

// "Hits an agent can afford": a recall hit carries what an agent reads and nothing null or
// internal; the whole record is one get_memory away. With explain, why each hit ranked.
const PARIS = 'Ana lives in Paris near the river';
const BERLIN = 'Ana moved and lives in Berlin now';
const LONG =
  `${'General notes on packing and travel planning for the season. '.repeat(14)}` +
  'Ana keeps her passport in the blue drawer of the hallway desk. ' +
  `${'More general notes about booking trains early and checking the weather. '.repeat(14)}`;

/** The fields a hit may carry (docs/tools.md#a-recall-hit): anything else is the record's, for get_memory. */
const HIT_FIELDS = new Set([
  'id',
  'text',
  'excerpt',
  'said',
  'ago',
  'score',
  'replacedBy',
  'replaces',
  'shared',
  'type',
  'scope',
  'tags',
  'contradicted',
  'supersededBy',
  'explain',
]);

type Step = { name: string; before: number; after: number };
type Hit = Record<string, unknown> & {
  id: string;
  text: string;
  score: number;
  explain?: {
    lexical?: { rank: number; bm25?: number; strength: number };
    vector?: { rank: number; similarity?: number; confidence: number };
    fused: number;
    adjustments: Step[];
  };
};
type Recalled = { results: Hit[]; fusion?: { lexicalWeight: number; vectorWeight: number; bestBm25: number } };

const nullsIn = (value: unknown): boolean =>
  value === null || (typeof value === 'object' && Object.values(value as object).some((inner) => nullsIn(inner)));

describe('recall hits an agent can afford', () => {
  const clock = new ManualClock('2026-11-20T09:00:00Z');
  let client: Client;
  let engine: MemoryEngine;

  const send = (args: Record<string, unknown>) => client.callTool({ name: 'recall', arguments: args });
  const recall = async (args: Record<string, unknown>) => {
    const result = await send(args);
    expect(result.isError, JSON.stringify(result.structuredContent)).not.toBe(true);
    return result.structuredContent as Recalled;
  };
  const create = async (args: Record<string, unknown>) => {
    const result = await client.callTool({ name: 'create_memory', arguments: { type: 'long-term', ...args } });
    expect(result.isError, JSON.stringify(result.structuredContent)).not.toBe(true);
    return (result.structuredContent as { memory: { id: string } }).memory.id;
  };

  beforeEach(async () => {
    clock.set('2026-11-20T09:00:00Z');
    const store = new InMemoryMemoryStore({ clock });
    engine = inMemoryEngine(store, { embedder: new StaticEmbedder({}, undefined), clock });
    client = await connectedClient(engine, clock);
  });
  afterEach(async () => {
    await client.close();
  });

  it(verifies('R-RECALL-LEAN-HIT', 'a plain hit is id, text, said, ago and a rounded score: nothing null, nothing internal'), async () => {
    const id = await create({ content: PARIS });
    clock.advance(3 * 86_400_000);
    const result = await send({ query: 'where does Ana live' });
    const recalled = result.structuredContent as Recalled;
    expect(recalled.results).toEqual([{ id, text: PARIS, said: '2026-11-20T09:00Z', ago: '3 days ago', score: expect.any(Number) }]);
    const [hit] = recalled.results;
    expect(hit?.score).toBe(Math.round((hit?.score ?? 0) * 1000) / 1000);
    // The text content is the same JSON, for a client that reads only text.
    const [text] = result.content as { type: string; text: string }[];
    expect(JSON.parse(text?.text ?? '')).toEqual(recalled);
    // The whole record is one get_memory away.
    const record = await client.callTool({ name: 'get_memory', arguments: { memoryId: id } });
    expect(record.structuredContent).toMatchObject({ memory: { id, content: PARIS, importance: null, hasEmbedding: false } });
  });

  it(
    verifies(
      'R-RECALL-LEAN-HIT',
      'a replaced fact, a short-term note, scope and tags, and a long memory’s passage show only the marks that apply',
    ),
    async () => {
      const paris = await create({ content: PARIS, tags: ['home'], scope: 'personal' });
      const berlin = await create({ content: BERLIN, supersedes: [paris], scope: 'personal' });
      const note = await create({ content: 'Ana lives out of a suitcase this week', type: 'short-term' });
      const long = await create({ content: LONG });
      const { results } = await recall({ query: 'where does Ana live', includeSuperseded: true });
      const byId = new Map(results.map((hit) => [hit.id, hit]));
      expect(results.map((hit) => hit.id).indexOf(berlin)).toBe(results.map((hit) => hit.id).indexOf(paris) - 1);
      expect(byId.get(berlin)).toMatchObject({ text: BERLIN, replaces: [paris], scope: 'personal' });
      expect(byId.get(paris)).toMatchObject({ replacedBy: berlin, supersededBy: berlin, tags: ['home'], scope: 'personal' });
      expect(byId.get(note)).toMatchObject({ type: 'short-term' });
      for (const id of [paris, berlin]) expect(byId.get(id)).not.toHaveProperty('type');
      const passage = (await recall({ query: 'where is the passport kept' })).results.find((hit) => hit.id === long);
      expect(LONG.length).toBeGreaterThan(PASSAGES.wholeUpTo);
      expect(passage?.text).toContain('passport in the blue drawer');
      expect(passage?.text).toBe(
        `…${LONG.slice((passage?.excerpt as { start: number }).start, (passage?.excerpt as { end: number }).end)}…`,
      );
      expect(passage?.excerpt).toMatchObject({ length: LONG.length });
      for (const hit of [...results, passage]) {
        expect(nullsIn(hit), JSON.stringify(hit)).toBe(false);
        expect(Object.keys(hit ?? {}).filter((key) => !HIT_FIELDS.has(key))).toEqual([]);
      }
    },
  );

  it(verifies('R-RECALL-LEAN-HIT', 'a hit from a space shared by grant names its owner and space'), async () => {
    const bob = { tenant: toTenantId('bob'), actor: { id: 'user:bob' } };
    const shared = (await engine.create(bob, { tier: 'ltm', content: 'Refunds go through the payments queue', scope: 'payments' })).memory;
    await engine.grant(bob, { space: 'payments', grantee: { kind: 'user', id: 'alice' }, access: 'read' });
    const { results } = await recall({ query: 'refunds payments', shared: 'all' });
    const hit = results.find((result) => result.id === shared.id);
    expect(hit).toMatchObject({ text: 'Refunds go through the payments queue', shared: { owner: 'bob', space: 'payments' } });
    expect(hit).not.toHaveProperty('scope');
    expect(nullsIn(hit)).toBe(false);
  });

  it(verifies('R-RECALL-EXPLAIN', 'explain: each hit’s list ranks, fused match and steps, replayed, give its score'), async () => {
    for (const content of [PARIS, BERLIN, 'Ana asked where the river walk starts?', 'Lunch with Ana in Paris on Friday']) {
      await create({ content });
      clock.advance(86_400_000);
    }
    expect((await recall({ query: 'where does Ana live in Paris' })).results[0]).not.toHaveProperty('explain');
    const recalled = await recall({ query: 'where does Ana live in Paris', explain: true });
    expect(recalled.fusion).toEqual({ lexicalWeight: 1, vectorWeight: 0, bestBm25: expect.any(Number) });
    for (const hit of recalled.results) {
      const explain = hit.explain;
      expect(explain).toBeDefined();
      if (!explain) continue;
      // Full text alone: the fused match is the strength, BM25 relative to the query's best.
      expect(explain.fused).toBeCloseTo(explain.lexical?.strength ?? 0, 5);
      expect(explain.lexical?.strength).toBeCloseTo((explain.lexical?.bm25 ?? 0) / (recalled.fusion?.bestBm25 ?? 1), 5);
      let score = explain.fused;
      for (const step of explain.adjustments) {
        expect(step.before).toBeCloseTo(score, 5);
        score = step.after;
      }
      expect(score).toBeCloseTo(hit.score, 3);
    }
    // The full-text ranks are the places by BM25: 1 to n, BM25 never rising along them.
    const byRank = [...recalled.results].sort((a, b) => (a.explain?.lexical?.rank ?? 0) - (b.explain?.lexical?.rank ?? 0));
    expect(byRank.map((hit) => hit.explain?.lexical?.rank)).toEqual(recalled.results.map((_, i) => i + 1));
    byRank.slice(1).forEach((hit, i) => {
      expect(hit.explain?.lexical?.bm25).toBeLessThanOrEqual(byRank[i]?.explain?.lexical?.bm25 ?? 0);
    });
    const asking = recalled.results.find((hit) => hit.text.endsWith('?'));
    expect(asking?.explain?.adjustments.map((step) => step.name)).toEqual(['importance-recency', 'asking']);
  });

  it(verifies('R-RECALL-EXPLAIN', 'explain that is not a boolean is INVALID_INPUT naming the field'), async () => {
    const result = await send({ query: 'where does Ana live', explain: 'yes' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: 'INVALID_INPUT', data: { field: 'explain' } } });
  });
});
