import { type DecayRules, decayVerdict } from '../domain/lifecycle-rules.js';
import type { MemoryRecord } from '../domain/memory.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { Clock } from '../ports/clock.js';
import type { ReviewStore } from '../ports/review-store.js';
import type { CallContext } from './engine-parts.js';

/** A long-term memory the decay scan marks stale or is about to prune. */
export interface FadingMemory {
  readonly memory: MemoryRecord;
  /** Its importance score now (the stored one is as of the last decay scan or write). */
  readonly score: number;
  /** At or below MEMORY_DECAY_STALE_SCORE_THRESHOLD now. */
  readonly stale: boolean;
  /** Prune-eligible now: the next decay scan deletes it (restorable). */
  readonly pruneEligible: boolean;
}

export interface FadingMemoryPage {
  readonly items: readonly FadingMemory[];
  /** Present when more rows follow. Opaque to callers. */
  readonly nextCursor: string | undefined;
}

export interface FadingMemoriesDependencies {
  readonly review: ReviewStore;
  readonly clock: Clock;
  /** The decay scan's rules (MEMORY_DECAY_* and MEMORY_IMPORTANCE_HALF_LIFE_DAYS). */
  readonly rules: DecayRules;
}

/** Most rows of one page. */
export const FADING_PAGE_MAX = 200;

/**
 * The caller's stale and prune-eligible long-term memories, lowest score first: what the decay
 * scan (spec §3.2 rule 3, R-DECAY-1) marks or deletes. The store finds candidates by the score the
 * scan stored, through the tenant's importance index (a scan of every memory per page view would
 * not do at 50k memories); each is then judged now with the scan's own rule (decayVerdict), so a
 * memory read since the last scan, whose score has risen, is not listed. A memory whose stored
 * score is still above the thresholds waits for the next scan to appear, as it waits for it to be
 * marked. A page can hold fewer than `limit` rows and still have a next one.
 */
export async function listFadingMemories(
  deps: FadingMemoriesDependencies,
  context: CallContext,
  query: { readonly limit: number; readonly cursor?: string | undefined },
): Promise<FadingMemoryPage> {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > FADING_PAGE_MAX) {
    throw new MemsvcError('INVALID_INPUT', `limit must be a whole number from 1 to ${FADING_PAGE_MAX}`, { field: 'limit' });
  }
  const { rules } = deps;
  const page = await deps.review.lowImportance(context.tenant, {
    maxScore: Math.max(rules.staleScoreThreshold, rules.pruneScoreThreshold),
    limit: query.limit,
    cursor: query.cursor,
  });
  const now = deps.clock.now();
  const items = page.items.flatMap((memory) => {
    const verdict = decayVerdict(memory, now, rules);
    return verdict.stale || verdict.prune
      ? [{ memory, score: verdict.importanceScore, stale: verdict.stale, pruneEligible: verdict.prune }]
      : [];
  });
  return { items, nextCursor: page.nextCursor };
}
