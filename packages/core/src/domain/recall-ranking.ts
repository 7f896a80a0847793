import type { EmbeddingProviderName } from '../config/known-models.js';
import type { MemoryRecord } from './memory.js';

/**
 * How much each candidate list counts in the fusion. The `local` embedder hashes words and
 * character n-grams: its list is a fuzzier copy of the full-text list, good at typos and word
 * forms, weaker at exact terms, so full text leads. A semantic model (ollama, openai) finds
 * paraphrases full text cannot, so its list leads. Without vectors only full text counts.
 * `pnpm eval` shows fusion against each list alone with these weights.
 */
export interface FusionWeights {
  readonly vector: number;
  readonly lexical: number;
  /**
   * Nearest neighbours below this cosine similarity are not candidates: a k-nearest search
   * always returns k rows, related or not, and an unrelated memory must not be recalled just
   * because the tenant has few memories. Set per model from where unrelated texts land (the
   * local embedder: under 0.2 for texts sharing no word; nomic-embed-text's unrelated texts sit
   * higher than text-embedding-3-small's).
   */
  readonly minVectorSimilarity: number;
}

export const FUSION_WEIGHTS: Readonly<Record<EmbeddingProviderName, FusionWeights>> = Object.freeze({
  local: Object.freeze({ vector: 0.7, lexical: 1, minVectorSimilarity: 0.2 }),
  ollama: Object.freeze({ vector: 1, lexical: 0.7, minVectorSimilarity: 0.45 }),
  openai: Object.freeze({ vector: 1, lexical: 0.7, minVectorSimilarity: 0.25 }),
  disabled: Object.freeze({ vector: 0, lexical: 1, minVectorSimilarity: 1 }),
});

/**
 * The RRF constant. The classic 60 suits fusing long web result lists; memsvc fuses two lists of
 * a few dozen candidates, where a smaller constant keeps first and fifth place meaningfully apart.
 */
export const RRF_K = 10;

/** The recency and importance nudge: at most ±5% and +5% of a candidate's fused score. */
export const RANKING_ADJUSTMENT = Object.freeze({ importance: 0.1, recency: 0.05, recencyHalfLifeDays: 30 });

/** A candidate as the store returns it: its place in each list (1-based) where it appears. */
export interface RecallCandidate {
  readonly memory: MemoryRecord;
  readonly vectorRank: number | undefined;
  readonly lexicalRank: number | undefined;
  /** Cosine similarity to the query vector, when the memory was in the vector list. */
  readonly similarity: number | undefined;
}

export interface RankedMemory {
  readonly memory: MemoryRecord;
  /** In [0, 1]: 1 is first in every list, fresh and of top importance. */
  readonly score: number;
  readonly vectorRank: number | undefined;
  readonly lexicalRank: number | undefined;
  readonly similarity: number | undefined;
}

/** Weighted reciprocal-rank fusion: Σ weight / (RRF_K + rank) over the lists a memory is in. */
export function fusedScore(
  candidate: Pick<RecallCandidate, 'vectorRank' | 'lexicalRank'>,
  weights: Pick<FusionWeights, 'vector' | 'lexical'>,
): number {
  const part = (rank: number | undefined, weight: number) => (rank === undefined || weight === 0 ? 0 : weight / (RRF_K + rank));
  return part(candidate.vectorRank, weights.vector) + part(candidate.lexicalRank, weights.lexical);
}

/**
 * The score recall sorts by, in [0, 1]:
 *
 *   fused / best  ·  (1 + 0.1 · (importanceScore − 0.5) + 0.05 · 0.5^(age days / 30)) / 1.1
 *
 * where `best` is the fused score of a memory first in both lists. Relevance dominates: the
 * nudge moves a memory by at most 10% of its own score, enough to order near-ties by importance
 * and freshness, never enough to lift an irrelevant memory over a relevant one.
 */
export function recallScore(candidate: RecallCandidate, weights: Pick<FusionWeights, 'vector' | 'lexical'>, now: Date): number {
  const best = fusedScore({ vectorRank: 1, lexicalRank: 1 }, weights);
  if (best === 0) return 0;
  const ageDays = Math.max(0, now.getTime() - candidate.memory.createdAt.getTime()) / 86_400_000;
  const recency = 0.5 ** (ageDays / RANKING_ADJUSTMENT.recencyHalfLifeDays);
  const nudge = 1 + RANKING_ADJUSTMENT.importance * (candidate.memory.importanceScore - 0.5) + RANKING_ADJUSTMENT.recency * recency;
  const maxNudge = 1 + RANKING_ADJUSTMENT.importance * 0.5 + RANKING_ADJUSTMENT.recency;
  return (fusedScore(candidate, weights) / best) * (nudge / maxNudge);
}

/** Ranks candidates by recallScore (ties: newer first) and keeps the best `limit`. */
export function rankCandidates(
  candidates: readonly RecallCandidate[],
  weights: Pick<FusionWeights, 'vector' | 'lexical'>,
  now: Date,
  limit: number,
): RankedMemory[] {
  return candidates
    .map((candidate) => ({ ...candidate, score: recallScore(candidate, weights, now) }))
    .filter((ranked) => ranked.score > 0)
    .sort((a, b) => b.score - a.score || (a.memory.id < b.memory.id ? 1 : -1))
    .slice(0, limit);
}
