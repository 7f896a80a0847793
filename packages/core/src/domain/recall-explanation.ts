import { type FusionContext, type FusionWeights, lexicalStrength, type RankedMemory, vectorConfidence } from './recall-ranking.js';
import { adjusted, type ScoreAdjustment } from './score-adjustments.js';

/**
 * Why a memory was recalled (`explain`): where it stood in each candidate list, the fused match
 * those places give, and each rule that moved the score from there, in order:
 *
 *   fused = (lexical weight · lexical.strength + vector weight · vector.confidence) / (lexical weight + vector weight)
 *   score = the last adjustment's `after` (or `fused` when none applied)
 *
 * A list the memory was not in is absent; a replacement the query did not find has no list and a
 * fused match of 0, lifted by its `replacement` step to the score of what it replaced.
 */
export interface RecallExplanation {
  /** Its place in the full-text list: rank (1 = best), BM25 score, and strength (BM25 / the query's best). */
  readonly lexical?: { readonly rank: number; readonly bm25?: number; readonly strength: number };
  /** Its place in the vector list: rank, cosine similarity, and how confidently related that is (vectorConfidence). */
  readonly vector?: { readonly rank: number; readonly similarity?: number; readonly confidence: number };
  /** The lists' fused match, in [0, 1]. */
  readonly fused: number;
  readonly adjustments: readonly ScoreAdjustment[];
}

/** What every hit's explanation is measured against: the weights the lists were fused with, and the query's best BM25. */
export interface RecallFusion {
  readonly lexicalWeight: number;
  readonly vectorWeight: number;
  /** The highest BM25 score among the candidates (0 when none matched by text): lexical strength is relative to it. */
  readonly bestBm25: number;
}

/** The fusion of one recall, for its explanation. */
export function recallFusion(weights: FusionWeights, context: FusionContext): RecallFusion {
  return { lexicalWeight: weights.lexical, vectorWeight: weights.vector, bestBm25: context.bestLexicalScore };
}

/**
 * A hit's explanation: its ranking (undefined for a replacement the query did not find) and the
 * score it is read with, which the reading order may have lifted to the score of what it replaced.
 */
export function explainHit(
  ranked: RankedMemory | undefined,
  score: number,
  weights: FusionWeights,
  context: FusionContext,
): RecallExplanation {
  const adjustments = [...(ranked?.adjustments ?? [])];
  adjusted(adjustments, 'replacement', ranked?.score ?? 0, score);
  return {
    ...(ranked?.lexicalRank !== undefined
      ? {
          lexical: {
            rank: ranked.lexicalRank,
            ...(ranked.lexicalScore !== undefined ? { bm25: ranked.lexicalScore } : {}),
            strength: lexicalStrength(ranked, context),
          },
        }
      : {}),
    ...(ranked?.vectorRank !== undefined
      ? {
          vector: {
            rank: ranked.vectorRank,
            ...(ranked.similarity !== undefined ? { similarity: ranked.similarity } : {}),
            confidence: vectorConfidence(ranked.similarity, weights),
          },
        }
      : {}),
    fused: ranked?.fused ?? 0,
    adjustments,
  };
}
