import { describe, expect, it } from 'vitest';
import { type FusionWeights, rankCandidates } from '../src/domain/recall-ranking.js';
import type { ScoreAdjustment } from '../src/domain/score-adjustments.js';
import { FUSION_WEIGHTS, type MemoryRecord, type RecallCandidate, type RecallHit, toTenantId } from '../src/index.js';
import { InMemoryMemoryStore, inMemoryEngine, ManualClock, StaticEmbedder } from '../src/testing/index.js';
import { verifies } from './requirements.js';

/** Each step starts where the one before ended: replayed from `fused`, the steps end at `score`. */
function expectChain(fused: number, adjustments: readonly ScoreAdjustment[], score: number) {
  let at = fused;
  for (const step of adjustments) {
    expect(step.before).toBe(at);
    expect(step.after).not.toBe(step.before);
    at = step.after;
  }
  expect(at).toBe(score);
}

describe('why a memory was recalled (explain)', () => {
  const now = new Date('2026-05-01T00:00:00Z');
  const turn = (id: string, at: number, lexicalScore: number, content: string): RecallCandidate => ({
    memory: {
      id,
      importanceScore: 0.5,
      createdAt: new Date('2026-04-20T00:00:00Z'),
      metadata: { conversation: { id: 'chat', turn: at, chunk: 0 } } as Record<string, unknown>,
      content,
    } as MemoryRecord,
    vectorRank: undefined,
    lexicalRank: at,
    lexicalScore,
    similarity: undefined,
  });

  it(
    verifies('R-RECALL-EXPLAIN', 'rankCandidates records each rule that moved a score, in order, from the fused match to the score'),
    () => {
      const candidates = [
        turn('question', 1, 6, 'Caroline: What inspired your painting?'),
        turn('answer', 2, 5, 'Melanie: The sunset at the lake inspired the painting.'),
        turn('praise', 3, 4, 'Caroline: That painting is lovely.'),
      ];
      const ranked = rankCandidates(candidates, FUSION_WEIGHTS.disabled, { now, limit: 3, query: 'What inspired Melanie painting?' });
      const byId = new Map(ranked.map((r) => [r.memory.id, r]));
      for (const r of ranked) expectChain(r.fused, r.adjustments, r.score);
      const names = (id: string) => byId.get(id)?.adjustments.map((step) => step.name);
      expect(names('question')).toEqual(['importance-recency', 'follow-ups', 'asking', 'named-speaker']);
      expect(names('answer')).toEqual(['importance-recency', 'follow-ups', 'reply']);
      expect(names('praise')).toEqual(['importance-recency', 'named-speaker']);
      // matchScore is the memory's own match: the fused match after the importance and recency nudge only.
      for (const r of ranked) expect(r.matchScore).toBe(r.adjustments[0]?.after);
      expect(byId.get('question')?.fused).toBe(1);
    },
  );

  describe('through the engine', () => {
    const tenant = toTenantId('ana');
    const context = { tenant, actor: { id: 'user:ana' } };
    // Words hashed into eight dimensions: texts sharing words are neighbours.
    const wordVector = (text: string) => {
      const vector = new Array<number>(8).fill(0);
      for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
        let hash = 0;
        for (const char of word) hash = (hash * 31 + char.charCodeAt(0)) % 8;
        vector[hash] = (vector[hash] ?? 0) + 1;
      }
      return vector;
    };
    const TEXTS = [
      'The deploy window is Tuesday morning',
      'Deploy keys rotate every month',
      'The staging deploy broke on Tuesday',
      'Lunch is at noon on Tuesday',
      'Bob reviews every deploy script',
    ];
    const QUERY = 'when is the deploy window';
    const fused: FusionWeights = { vector: 1, lexical: 0.7, minVectorSimilarity: 0, confidentVectorSimilarity: 1 };
    const recallWith = async (fusion: FusionWeights, explain: unknown) => {
      const clock = new ManualClock('2026-05-01T10:00:00Z');
      const store = new InMemoryMemoryStore({ clock });
      const engine = inMemoryEngine(store, { embedder: new StaticEmbedder({}, 'static-test', wordVector), clock, fusion });
      for (const content of TEXTS) await engine.create(context, { tier: 'ltm', content });
      return engine.recall(context, { query: QUERY, limit: 10, explain: explain as boolean });
    };
    const idsByText = (hits: readonly RecallHit[]) => new Map(hits.map((hit) => [hit.memory.content, hit]));

    it(
      verifies(
        'R-RECALL-EXPLAIN',
        "each hit's list ranks are its places in the full-text-only and vector-only answers, and its steps end at its score",
      ),
      async () => {
        const both = await recallWith(fused, true);
        expect(both.fusion).toEqual({ lexicalWeight: 0.7, vectorWeight: 1, bestBm25: expect.any(Number) });
        const lexicalOnly = await recallWith({ ...fused, vector: 0 }, true);
        const vectorOnly = await recallWith({ ...fused, lexical: 0 }, true);
        for (const hit of both.results) {
          const explanation = hit.explanation;
          expect(explanation).toBeDefined();
          if (!explanation) continue;
          expectChain(explanation.fused, explanation.adjustments, hit.score);
          const weighted = 0.7 * (explanation.lexical?.strength ?? 0) + (explanation.vector?.confidence ?? 0);
          expect(explanation.fused).toBeCloseTo(weighted / 1.7, 12);
        }
        // A list's rank is the place by that list's own measure: BM25 for full text, similarity for vectors.
        const byBm25 = [...lexicalOnly.results].sort((a, b) => (b.lexicalScore ?? 0) - (a.lexicalScore ?? 0));
        const bySimilarity = [...vectorOnly.results].sort((a, b) => (b.similarity ?? 0) - (a.similarity ?? 0));
        const inBoth = idsByText(both.results);
        byBm25.forEach((hit, i) => {
          expect(inBoth.get(hit.memory.content)?.explanation?.lexical).toMatchObject({ rank: i + 1, bm25: hit.lexicalScore });
        });
        bySimilarity.forEach((hit, i) => {
          expect(inBoth.get(hit.memory.content)?.explanation?.vector).toMatchObject({ rank: i + 1, similarity: hit.similarity });
        });
        expect(byBm25.length).toBeGreaterThan(1);
        expect(bySimilarity.length).toBeGreaterThan(1);
        // Full text alone: the order of its strongest matches.
        expect(lexicalOnly.results[0]?.memory.content).toBe(byBm25[0]?.memory.content);
      },
    );

    it(
      verifies('R-RECALL-EXPLAIN', 'no explanation unless asked; explain that is not a boolean is INVALID_INPUT naming the field'),
      async () => {
        const plain = await recallWith(fused, undefined);
        expect(plain.fusion).toBeUndefined();
        expect(plain.results.every((hit) => hit.explanation === undefined)).toBe(true);
        await expect(recallWith(fused, 'yes')).rejects.toMatchObject({ code: 'INVALID_INPUT', data: { field: 'explain' } });
      },
    );
  });
});
