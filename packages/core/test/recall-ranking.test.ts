import { describe, expect, it } from 'vitest';
import { lexicalStrength, rankCandidates, vectorConfidence } from '../src/domain/recall-ranking.js';
import { FUSION_WEIGHTS, fusionContextOf, type MemoryRecord, type RecallCandidate, recallScore } from '../src/index.js';
import { verifies } from './requirements.js';

const now = new Date('2026-05-01T00:00:00Z');
const memory = (id: string, importanceScore = 0.5, createdAt = now) =>
  ({ id, importanceScore, createdAt, metadata: {}, content: `memory ${id}` }) as MemoryRecord;
const candidate = (id: string, vectorRank?: number, lexicalRank?: number, similarity?: number, m = memory(id)): RecallCandidate => ({
  memory: m,
  vectorRank,
  lexicalRank,
  similarity,
});
const local = FUSION_WEIGHTS.local;

describe('recall ranking (score fusion weighed per query, with a small importance/recency nudge)', () => {
  const scored = (
    id: string,
    lexicalScore: number | undefined,
    lexicalRank: number | undefined,
    vectorRank?: number,
    similarity?: number,
  ) => ({ ...candidate(id, vectorRank, lexicalRank, similarity), lexicalScore }) as RecallCandidate;

  it(
    verifies(
      'R-RECALL-RANK',
      'scores 1 for the best text match that is also a confident neighbour, fresh and of top importance; 0 in no list',
    ),
    () => {
      const context = { bestLexicalScore: 8 };
      expect(recallScore({ ...scored('a', 8, 1, 1, 0.9), memory: memory('a', 1) }, local, now, context)).toBeCloseTo(1, 12);
      expect(recallScore(candidate('b'), local, now, context)).toBe(0);
      const some = recallScore(scored('c', 4, 2, 3, 0.3), local, now, context);
      expect(some).toBeGreaterThan(0);
      expect(some).toBeLessThan(1);
    },
  );

  it(verifies('R-RECALL-RANK', 'weighs full text relative to the query’s best match, so BM25’s scale never matters'), () => {
    expect(lexicalStrength(scored('x', 4, 2), { bestLexicalScore: 8 })).toBeCloseTo(0.5, 12);
    expect(lexicalStrength(scored('x', 40, 2), { bestLexicalScore: 80 })).toBeCloseTo(0.5, 12);
    expect(fusionContextOf([scored('a', 3, 2), scored('b', 7, 1), candidate('c', 1)])).toEqual({ bestLexicalScore: 7 });
    // A store without scores: the place counts (RRF_K + 1) / (RRF_K + place).
    expect(lexicalStrength(candidate('y', undefined, 1), { bestLexicalScore: 0 })).toBe(1);
    expect(lexicalStrength(candidate('y', undefined, 3), { bestLexicalScore: 0 })).toBeCloseTo(11 / 13, 12);
  });

  it(
    verifies('R-RECALL-RANK', 'scales a neighbour’s weight by its confidence, so a faint resemblance cannot outvote a strong text match'),
    () => {
      expect(vectorConfidence(0.2, local)).toBe(0);
      expect(vectorConfidence(0.4, local)).toBeCloseTo(0.5, 12);
      expect(vectorConfidence(0.9, local)).toBe(1);
      const faintEverywhere = scored('faint', 1, 13, 1, 0.21);
      const textFirst = scored('text', 10, 1);
      expect(rankCandidates([faintEverywhere, textFirst], local, { now, limit: 2 }).map((r) => r.memory.id)).toEqual(['text', 'faint']);
      const strongNeighbour = scored('strong', 9, 2, 1, 0.8);
      expect(rankCandidates([strongNeighbour, textFirst], local, { now, limit: 2 }).map((r) => r.memory.id)).toEqual(['strong', 'text']);
      // With a semantic model the vector list leads: a confident paraphrase beats a mediocre text match.
      const paraphrase = scored('paraphrase', undefined, undefined, 1, 0.75);
      const wordMatch = scored('words', 5, 2, 20, 0.46);
      const withBest = scored('best', 10, 1, 30, 0.45);
      expect(rankCandidates([wordMatch, paraphrase, withBest], FUSION_WEIGHTS.ollama, { now, limit: 3 }).map((r) => r.memory.id)).toEqual([
        'paraphrase',
        'best',
        'words',
      ]);
    },
  );

  it(verifies('R-RECALL-RANK', 'lets importance and recency order near-ties, but not lift a clearly weaker match'), () => {
    const old = new Date(now.getTime() - 365 * 86_400_000);
    const relevantButDull = scored('dull', 10, 1, undefined, undefined);
    const dull = { ...relevantButDull, memory: memory('dull', 0, old) };
    const weakerButShiny = { ...scored('shiny', 9, 2), memory: memory('shiny', 1, now) };
    expect(rankCandidates([weakerButShiny, dull], FUSION_WEIGHTS.disabled, { now, limit: 2 })[0]?.memory.id).toBe('dull');
    const tieA = { ...scored('a', 10, 1), memory: memory('a', 0.2) };
    const tieB = { ...scored('b', 10, 2), memory: memory('b', 0.9) };
    expect(rankCandidates([tieA, tieB], FUSION_WEIGHTS.disabled, { now, limit: 2 })[0]?.memory.id).toBe('b');
  });
});
