import { importanceScore, isPruneEligible, isStale } from './importance.js';
import type { MemoryRecord } from './memory.js';

/** Spec §3.2 rule 4 settings: STM_CONSOLIDATION_ACCESS_THRESHOLD and _IMPORTANCE_THRESHOLD. */
export interface PromotionRules {
  readonly accessThreshold: number;
  /** When set, a memory also needs an importance score at least this high. */
  readonly importanceThreshold: number | undefined;
}

/**
 * R-PROMOTE-1: a live short-term memory qualifies for promotion when its access count reaches
 * the threshold and, when an importance threshold is set, its importance score reaches it too.
 */
export function qualifiesForPromotion(
  memory: Pick<MemoryRecord, 'tier' | 'accessCount' | 'importanceScore'>,
  rules: PromotionRules,
): boolean {
  if (memory.tier !== 'stm' || memory.accessCount < rules.accessThreshold) return false;
  return rules.importanceThreshold === undefined || memory.importanceScore >= rules.importanceThreshold;
}

/** The decay scan's settings (spec §2.5 MEMORY_DECAY_* and MEMORY_IMPORTANCE_HALF_LIFE_DAYS). */
export interface DecayRules {
  readonly halfLifeDays: number;
  readonly staleScoreThreshold: number;
  readonly pruneScoreThreshold: number;
  readonly pruneOlderThanDays: number;
}

/** What the decay scan does to one memory. */
export interface DecayVerdict {
  readonly importanceScore: number;
  readonly stale: boolean;
  /** Prune-eligible: the scan deletes it (restorable from its audit trail). */
  readonly prune: boolean;
}

/**
 * R-DECAY-1: the scan recomputes the importance score (see importance.ts), marks the memory
 * stale at or below the stale threshold (and clears the mark above it), and prunes it when it
 * is below the prune threshold, older than the minimum age and not pinned (spec §3.2 rule 3).
 */
export function decayVerdict(
  memory: Pick<MemoryRecord, 'importance' | 'accessCount' | 'pinned' | 'createdAt' | 'lastAccessedAt'>,
  now: Date,
  rules: DecayRules,
): DecayVerdict {
  const score = importanceScore(memory, now, rules.halfLifeDays);
  return {
    importanceScore: score,
    stale: isStale(score, rules.staleScoreThreshold),
    prune: isPruneEligible(memory, score, now, rules),
  };
}
