/** Inputs of the importance score (spec §2.1). */
export interface ImportanceInputs {
  /** Importance the client supplied (0–1); null means "not said", which counts as 0.5. */
  readonly importance: number | null;
  readonly accessCount: number;
  readonly pinned: boolean;
  readonly createdAt: Date;
  readonly lastAccessedAt: Date | null;
}

/** Weights of the three components; they sum to 1. */
export const IMPORTANCE_WEIGHTS = { explicit: 0.4, recency: 0.35, access: 0.25 } as const;
/** Reads at which the access component reaches 1. */
export const ACCESS_SATURATION = 20;
/** A pinned memory scores at least this. */
export const PINNED_FLOOR = 0.9;

/**
 * The importance score, in [0, 1]:
 *
 *   0.40 · explicit  +  0.35 · recency  +  0.25 · access,   pinned ⇒ at least 0.9
 *
 * - explicit: the client's importance, 0.5 when not given — an input, never overwritten;
 * - recency: 0.5 ^ (days since the last read, or creation, / MEMORY_IMPORTANCE_HALF_LIFE_DAYS);
 * - access: log2(1 + reads) / log2(1 + 20), capped at 1.
 *
 * A fresh, unread memory with no stated importance scores 0.55; unread, it reaches the default
 * stale threshold (0.3) after about 2.6 half-lives, and can never fall below 0.4 · explicit,
 * so only memories the client rated low (< 0.375) can drop under the default prune threshold.
 */
export function importanceScore(inputs: ImportanceInputs, now: Date, halfLifeDays: number): number {
  const explicit = inputs.importance ?? 0.5;
  const lastTouched = Math.max(inputs.createdAt.getTime(), inputs.lastAccessedAt?.getTime() ?? 0);
  const ageDays = Math.max(0, now.getTime() - lastTouched) / 86_400_000;
  const recency = 0.5 ** (ageDays / halfLifeDays);
  const access = Math.min(1, Math.log2(1 + Math.max(0, inputs.accessCount)) / Math.log2(1 + ACCESS_SATURATION));
  const score = IMPORTANCE_WEIGHTS.explicit * explicit + IMPORTANCE_WEIGHTS.recency * recency + IMPORTANCE_WEIGHTS.access * access;
  return clamp01(inputs.pinned ? Math.max(score, PINNED_FLOOR) : score);
}

/** Spec §3.2 rule 3: at or below the stale threshold. */
export function isStale(score: number, staleThreshold: number): boolean {
  return score <= staleThreshold;
}

/** Spec §3.2 rule 3: below the prune threshold, older than the minimum age, and not pinned. */
export function isPruneEligible(
  memory: { readonly pinned: boolean; readonly createdAt: Date },
  score: number,
  now: Date,
  rules: { readonly pruneScoreThreshold: number; readonly pruneOlderThanDays: number },
): boolean {
  const ageDays = (now.getTime() - memory.createdAt.getTime()) / 86_400_000;
  return !memory.pinned && score < rules.pruneScoreThreshold && ageDays > rules.pruneOlderThanDays;
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}
