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
  /**
   * The similarity at which a neighbour counts fully. Between the minimum and this, its vector
   * weight grows linearly from 0: a weak embedder's faint resemblance (the local embedder puts
   * texts sharing one name at 0.2–0.3) must not outvote a strong full-text match.
   */
  readonly confidentVectorSimilarity: number;
}

export const FUSION_WEIGHTS: Readonly<Record<EmbeddingProviderName, FusionWeights>> = Object.freeze({
  local: Object.freeze({ vector: 0.7, lexical: 1, minVectorSimilarity: 0.2, confidentVectorSimilarity: 0.6 }),
  ollama: Object.freeze({ vector: 1, lexical: 0.7, minVectorSimilarity: 0.45, confidentVectorSimilarity: 0.7 }),
  openai: Object.freeze({ vector: 1, lexical: 0.7, minVectorSimilarity: 0.25, confidentVectorSimilarity: 0.5 }),
  disabled: Object.freeze({ vector: 0, lexical: 1, minVectorSimilarity: 1, confidentVectorSimilarity: 1 }),
});

/**
 * The RRF constant. The classic 60 suits fusing long web result lists; memsvc fuses two lists of
 * a few dozen candidates, where a smaller constant keeps first and fifth place meaningfully apart.
 */
export const RRF_K = 10;

/**
 * The importance and recency nudge: importance moves a score by at most ±2%, recency adds at
 * most 2%. The largest swing between two candidates is 1.04 / 0.98 ≈ 1.061, less than the ratio
 * between any two neighbouring places among the first seven of a list ((RRF_K + 7) / (RRF_K + 6)
 * ≈ 1.0625), so the nudge never reorders those; further down, where places differ by less, it
 * orders near-ties by importance and freshness.
 */
export const RANKING_ADJUSTMENT = Object.freeze({ importance: 0.04, recency: 0.02, recencyHalfLifeDays: 30 });

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

/**
 * Weighted reciprocal-rank fusion: Σ weight / (RRF_K + rank) over the lists a memory is in,
 * where the vector weight is scaled by the neighbour's confidence (0 at the minimum similarity,
 * 1 from the confident similarity up). A candidate without a similarity counts fully.
 */
export function fusedScore(candidate: Pick<RecallCandidate, 'vectorRank' | 'lexicalRank' | 'similarity'>, weights: FusionWeights): number {
  const part = (rank: number | undefined, weight: number) => (rank === undefined || weight === 0 ? 0 : weight / (RRF_K + rank));
  const vectorWeight = weights.vector * vectorConfidence(candidate.similarity, weights);
  return part(candidate.vectorRank, vectorWeight) + part(candidate.lexicalRank, weights.lexical);
}

/** How far a similarity is from "unrelated" towards "clearly related", in [0, 1]. */
export function vectorConfidence(similarity: number | undefined, weights: FusionWeights): number {
  if (similarity === undefined) return 1;
  const span = weights.confidentVectorSimilarity - weights.minVectorSimilarity;
  if (span <= 0) return similarity >= weights.minVectorSimilarity ? 1 : 0;
  return Math.min(1, Math.max(0, (similarity - weights.minVectorSimilarity) / span));
}

/**
 * The score recall sorts by, in [0, 1]:
 *
 *   fused / best  ·  (1 + 0.04 · (importanceScore − 0.5) + 0.02 · 0.5^(age days / 30)) / 1.04
 *
 * where `best` is the fused score of a memory first in both lists. Relevance dominates (see
 * RANKING_ADJUSTMENT for how little the nudge can move).
 */
export function recallScore(candidate: RecallCandidate, weights: FusionWeights, now: Date): number {
  const best = fusedScore({ vectorRank: 1, lexicalRank: 1, similarity: undefined }, weights);
  if (best === 0) return 0;
  const ageDays = Math.max(0, now.getTime() - candidate.memory.createdAt.getTime()) / 86_400_000;
  const recency = 0.5 ** (ageDays / RANKING_ADJUSTMENT.recencyHalfLifeDays);
  const nudge = 1 + RANKING_ADJUSTMENT.importance * (candidate.memory.importanceScore - 0.5) + RANKING_ADJUSTMENT.recency * recency;
  const maxNudge = 1 + RANKING_ADJUSTMENT.importance * 0.5 + RANKING_ADJUSTMENT.recency;
  return (fusedScore(candidate, weights) / best) * (nudge / maxNudge);
}

/** Ranks candidates by recallScore (ties: newer first) and keeps the best `limit`. */
export function rankCandidates(candidates: readonly RecallCandidate[], weights: FusionWeights, now: Date, limit: number): RankedMemory[] {
  return candidates
    .map((candidate) => ({ ...candidate, score: recallScore(candidate, weights, now) }))
    .filter((ranked) => ranked.score > 0)
    .sort((a, b) => b.score - a.score || (a.memory.id < b.memory.id ? 1 : -1))
    .slice(0, limit);
}
