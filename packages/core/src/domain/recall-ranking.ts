import { ASKING_DISCOUNT, asksQuestion } from './asking-turn.js';
import type { EmbeddingProviderName } from './embedding-models.js';
import { conversationSupport, FOLLOW_UP_SUPPORT, type FollowUpRules } from './follow-up-support.js';
import type { MemoryRecord } from './memory.js';
import { NAMED_SPEAKER_BOOST, ROLE_SPEAKER_BOOST, speakerNamedIn } from './named-speaker.js';
import { adjusted, type ScoreAdjustment } from './score-adjustments.js';

/**
 * How much each candidate list counts in the fusion, at most. The `local` embedder hashes words
 * and character n-grams: its list is a fuzzier copy of the full-text list, good at typos and word
 * forms, weaker at exact terms, so full text leads. A semantic model (ollama, openai) finds
 * paraphrases full text cannot, so its list leads. Without vectors only full text counts.
 * How much a list actually counts for a query is how informative it is for that query (see
 * fusedScore): `pnpm eval` and `pnpm eval:conversations` show fusion against each list alone.
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
  local: Object.freeze({ vector: 0.2, lexical: 1, minVectorSimilarity: 0.2, confidentVectorSimilarity: 0.6 }),
  ollama: Object.freeze({ vector: 1, lexical: 0.7, minVectorSimilarity: 0.45, confidentVectorSimilarity: 0.7 }),
  openai: Object.freeze({ vector: 1, lexical: 0.7, minVectorSimilarity: 0.25, confidentVectorSimilarity: 0.5 }),
  disabled: Object.freeze({ vector: 0, lexical: 1, minVectorSimilarity: 1, confidentVectorSimilarity: 1 }),
});

/**
 * For candidates that carry a full-text rank but no score (a store without BM25 scores): the
 * lexical part of place r is (RRF_K + 1) / (RRF_K + r), 1 for first place.
 */
export const RRF_K = 10;

/**
 * The importance and recency nudge: importance moves a score by at most ±2%, recency adds at
 * most 2%, so the largest swing between two candidates is 1.04 / 0.98 ≈ 6%: it orders near-ties
 * by importance and freshness and cannot lift a clearly weaker match over a stronger one.
 */
export const RANKING_ADJUSTMENT = Object.freeze({ importance: 0.04, recency: 0.02, recencyHalfLifeDays: 30 });

/** A candidate as the store returns it: its place in each list (1-based) where it appears. */
export interface RecallCandidate {
  readonly memory: MemoryRecord;
  readonly vectorRank: number | undefined;
  readonly lexicalRank: number | undefined;
  /** The memory's BM25 score for the query, when it was in the full-text list. */
  readonly lexicalScore?: number | undefined;
  /** Cosine similarity to the query vector, when the memory was in the vector list. */
  readonly similarity: number | undefined;
}

export interface RankedMemory {
  readonly memory: MemoryRecord;
  /**
   * What recall ranks by, in [0, 1]: the memory's own match, lifted when the turns after it in
   * its conversation, or the question it replies to, match too (follow-up-support.ts), and
   * lowered a little when it asks a question itself (asking-turn.ts) or when the query names
   * another speaker (named-speaker.ts).
   */
  readonly score: number;
  /** The memory's own match, in [0, 1]: 1 is the best full-text match, a confident neighbour, fresh and of top importance. */
  readonly matchScore: number;
  /** The lists' fused match before any adjustment, in [0, 1] (fusedMatch). */
  readonly fused: number;
  /** Every step that moved the score from `fused` to `score`, in the order applied. */
  readonly adjustments: readonly ScoreAdjustment[];
  readonly vectorRank: number | undefined;
  readonly lexicalRank: number | undefined;
  readonly lexicalScore?: number | undefined;
  readonly similarity: number | undefined;
}

/** What a candidate's fused score is measured against: the query's best full-text score. */
export interface FusionContext {
  /** The highest BM25 score among the query's candidates (0 when none matched by text). */
  readonly bestLexicalScore: number;
}

/**
 * Score fusion, each list weighed by how informative it is for this query:
 *
 *   lexical · score / best score of the query  +  vector · confidence(similarity)
 *
 * The full-text part is relative to the query's best match, so the best text match always counts
 * fully and the others by how close they come (a BM25 score means nothing across queries). The
 * vector part is absolute: a neighbour counts by how similar it really is (0 at the model's
 * "unrelated" similarity, full from its "clearly related" one), so when nothing is truly close the
 * vector list hardly counts and full text decides, and a confident neighbour can lead. Rank-based
 * fusion (RRF) gave a weak list's first places the same weight as a strong one's and ranked below
 * full text alone on real conversations.
 */
export function fusedScore(
  candidate: Pick<RecallCandidate, 'vectorRank' | 'lexicalRank' | 'lexicalScore' | 'similarity'>,
  weights: FusionWeights,
  context: FusionContext,
): number {
  const vector =
    candidate.vectorRank === undefined || weights.vector === 0 ? 0 : weights.vector * vectorConfidence(candidate.similarity, weights);
  return vector + weights.lexical * lexicalStrength(candidate, context);
}

/** How close a candidate's full-text match comes to the query's best, in [0, 1]. */
export function lexicalStrength(candidate: Pick<RecallCandidate, 'lexicalRank' | 'lexicalScore'>, context: FusionContext): number {
  if (candidate.lexicalRank === undefined) return 0;
  if (candidate.lexicalScore === undefined || context.bestLexicalScore <= 0) return (RRF_K + 1) / (RRF_K + candidate.lexicalRank);
  return Math.min(1, Math.max(0, candidate.lexicalScore / context.bestLexicalScore));
}

/** How far a similarity is from "unrelated" towards "clearly related", in [0, 1]. */
export function vectorConfidence(similarity: number | undefined, weights: FusionWeights): number {
  if (similarity === undefined) return 1;
  const span = weights.confidentVectorSimilarity - weights.minVectorSimilarity;
  if (span <= 0) return similarity >= weights.minVectorSimilarity ? 1 : 0;
  return Math.min(1, Math.max(0, (similarity - weights.minVectorSimilarity) / span));
}

/** The fusion context of a set of candidates. */
export function fusionContextOf(candidates: readonly Pick<RecallCandidate, 'lexicalScore'>[]): FusionContext {
  let bestLexicalScore = 0;
  for (const candidate of candidates) bestLexicalScore = Math.max(bestLexicalScore, candidate.lexicalScore ?? 0);
  return { bestLexicalScore };
}

/**
 * The score recall sorts by, in [0, 1]:
 *
 *   fused / (lexical + vector weight)  ·  (1 + 0.04 · (importanceScore − 0.5) + 0.02 · 0.5^(age days / 30)) / 1.04
 *
 * Relevance dominates (see RANKING_ADJUSTMENT for how little the nudge can move).
 */
export function recallScore(candidate: RecallCandidate, weights: FusionWeights, now: Date, context: FusionContext): number {
  return fusedMatch(candidate, weights, context) * importanceRecencyNudge(candidate.memory, now);
}

/** The fused score as a share of the best possible, in [0, 1]: the match before any adjustment. */
export function fusedMatch(candidate: RecallCandidate, weights: FusionWeights, context: FusionContext): number {
  const best = weights.lexical + weights.vector;
  return best === 0 ? 0 : fusedScore(candidate, weights, context) / best;
}

/** The importance and recency factor of a memory, in (0, 1]: 1 for a memory of top importance said just now. */
export function importanceRecencyNudge(memory: Pick<MemoryRecord, 'createdAt' | 'importanceScore'>, now: Date): number {
  const ageDays = Math.max(0, now.getTime() - memory.createdAt.getTime()) / 86_400_000;
  const recency = 0.5 ** (ageDays / RANKING_ADJUSTMENT.recencyHalfLifeDays);
  const nudge = 1 + RANKING_ADJUSTMENT.importance * (memory.importanceScore - 0.5) + RANKING_ADJUSTMENT.recency * recency;
  const maxNudge = 1 + RANKING_ADJUSTMENT.importance * 0.5 + RANKING_ADJUSTMENT.recency;
  return nudge / maxNudge;
}

/** What ranking needs beyond the candidates and the fusion weights. */
export interface RankingOptions {
  readonly now: Date;
  readonly limit: number;
  /** The query as the caller wrote it: the speakers it names count (named-speaker.ts). */
  readonly query?: string | undefined;
  readonly followUps?: FollowUpRules | undefined;
  /**
   * The query-time adjustments besides conversation support, each on unless turned off here:
   * what the ablations (tooling/eval/ablate-longmemeval.mjs) switch off to measure each one.
   */
  readonly adjustments?: { readonly asking?: boolean; readonly namedSpeaker?: boolean; readonly roleSpeakerBoost?: number } | undefined;
}

/**
 * Ranks candidates by recallScore lifted by conversation support (follow-ups and replies), less
 * ASKING_DISCOUNT for a memory that asks a question and less NAMED_SPEAKER_BOOST for one said by
 * someone other than the speakers the query names (ties: newer first), and keeps the best
 * `limit`. Candidates that match nothing are dropped before support is counted. `matchScore`
 * stays the memory's own match (forget judges by it). Each rule records what it did in the
 * memory's `adjustments` (score-adjustments.ts): a new rule is one `adjusted(...)` line.
 */
export function rankCandidates(candidates: readonly RecallCandidate[], weights: FusionWeights, options: RankingOptions): RankedMemory[] {
  const context = fusionContextOf(candidates);
  const matched = candidates
    .map((candidate) => {
      const fused = fusedMatch(candidate, weights, context);
      const adjustments: ScoreAdjustment[] = [];
      const matchScore = adjusted(adjustments, 'importance-recency', fused, fused * importanceRecencyNudge(candidate.memory, options.now));
      return { ...candidate, fused, adjustments, matchScore };
    })
    .filter((ranked) => ranked.matchScore > 0);
  const support = conversationSupport(matched, options.followUps ?? FOLLOW_UP_SUPPORT);
  const isNamed = options.query === undefined || options.adjustments?.namedSpeaker === false ? () => false : speakerNamedIn(options.query);
  const discountsAsking = options.adjustments?.asking !== false;
  const named = matched.map((ranked) => isNamed(ranked.memory));
  // Named by name anywhere: the name's pull; by grammatical person only: the role's (named-speaker.ts).
  const boost = named.includes('name')
    ? NAMED_SPEAKER_BOOST
    : named.includes('role')
      ? (options.adjustments?.roleSpeakerBoost ?? ROLE_SPEAKER_BOOST)
      : 0;
  return matched
    .map((ranked, i) => {
      const { adjustments } = ranked;
      let score = adjusted(adjustments, 'follow-ups', ranked.matchScore, support[i]?.afterFollowUps ?? ranked.matchScore);
      score = adjusted(adjustments, 'reply', score, support[i]?.afterReply ?? score);
      const asks = discountsAsking && asksQuestion(ranked.memory.content);
      score = adjusted(adjustments, 'asking', score, asks ? score * (1 - ASKING_DISCOUNT) : score);
      score = adjusted(adjustments, 'named-speaker', score, boost > 0 && !named[i] ? score / (1 + boost) : score);
      return { ...ranked, score };
    })
    .sort((a, b) => b.score - a.score || (a.memory.id < b.memory.id ? 1 : -1))
    .slice(0, options.limit);
}
