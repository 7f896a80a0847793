import { describe, expect, it } from 'vitest';
import { FUSION_WEIGHTS, type MemoryRecord, type RecallCandidate, rankCandidates, recallScore, vectorConfidence } from '../src/index.js';
import { verifies } from './requirements.js';

const now = new Date('2026-05-01T00:00:00Z');
const memory = (id: string, importanceScore = 0.5, createdAt = now) => ({ id, importanceScore, createdAt }) as MemoryRecord;
const candidate = (id: string, vectorRank?: number, lexicalRank?: number, similarity?: number, m = memory(id)): RecallCandidate => ({
  memory: m,
  vectorRank,
  lexicalRank,
  similarity,
});
const local = FUSION_WEIGHTS.local;

describe('recall ranking (weighted RRF with a small importance/recency nudge)', () => {
  it(verifies('R-RECALL-RANK', 'scores 1 for first in both lists, fresh and of top importance; 0 in no list'), () => {
    expect(recallScore(candidate('a', 1, 1, 0.9, memory('a', 1)), local, now)).toBeCloseTo(1, 12);
    expect(recallScore(candidate('b'), local, now)).toBe(0);
    const some = recallScore(candidate('c', 3, 2, 0.5), local, now);
    expect(some).toBeGreaterThan(0);
    expect(some).toBeLessThan(1);
  });

  it(
    verifies('R-RECALL-RANK', 'scales a neighbour’s weight by its confidence, so a faint resemblance cannot outvote a strong text match'),
    () => {
      expect(vectorConfidence(0.2, local)).toBe(0);
      expect(vectorConfidence(0.4, local)).toBeCloseTo(0.5, 12);
      expect(vectorConfidence(0.9, local)).toBe(1);
      const faintEverywhere = candidate('faint', 1, 13, 0.21);
      const textFirst = candidate('text', undefined, 1);
      expect(rankCandidates([faintEverywhere, textFirst], local, now, 2).map((r) => r.memory.id)).toEqual(['text', 'faint']);
      const strongNeighbour = candidate('strong', 1, 4, 0.8);
      expect(rankCandidates([strongNeighbour, textFirst], local, now, 2).map((r) => r.memory.id)).toEqual(['strong', 'text']);
    },
  );

  it(verifies('R-RECALL-RANK', 'lets importance and recency order near-ties, but never reorder the first seven places of a list'), () => {
    const old = new Date(now.getTime() - 365 * 86_400_000);
    for (let place = 1; place <= 6; place++) {
      const relevantButDull = candidate('dull', undefined, place, undefined, memory('dull', 0, old));
      const nextButShiny = candidate('shiny', undefined, place + 1, undefined, memory('shiny', 1, now));
      expect(rankCandidates([nextButShiny, relevantButDull], FUSION_WEIGHTS.disabled, now, 2)[0]?.memory.id).toBe('dull');
    }
    const tieA = candidate('a', undefined, 1, undefined, memory('a', 0.2));
    const tieB = candidate('b', undefined, 1, undefined, memory('b', 0.9));
    expect(rankCandidates([tieA, tieB], FUSION_WEIGHTS.disabled, now, 2)[0]?.memory.id).toBe('b');
  });
});
