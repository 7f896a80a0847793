import { matchingPassage } from '../domain/matching-passage.js';
import { describeAge, formatInstant } from '../domain/memory-age.js';
import type { RankedMemory } from '../domain/recall-ranking.js';
import type { ContextEntry } from '../domain/replacement-order.js';
import { admitFilters, currentFirstEntries } from './current-first.js';
import type { CallContext } from './engine-parts.js';
import type { MemoryOperations } from './memory-operations.js';
import type { RecallInput } from './recall.js';

/** A recall hit as an agent reads it: its score, when it was said and how long ago, and what replaced what. */
export interface RecallHit extends ContextEntry {
  readonly score: number;
  /** When the memory was said, to the minute in UTC (`2026-11-27T14:05Z`). */
  readonly said: string;
  /** How long before the server's now (`3 days ago`). */
  readonly ago: string;
}

/**
 * Recall's hits in the order an agent should read them (R-TIME-CURRENT-FIRST): best first, except
 * that a memory that replaced a hit comes right before it. A replacement the ranking did not
 * return is added there with the score of the hit it replaced (it answers what that hit answered),
 * when the recall's filters admit it. Ranking itself is untouched. Given the query, a hit on a long
 * memory carries the passage that matched (`passage`), which is what a reader should be shown.
 */
export async function recallHits(
  engine: MemoryOperations,
  context: CallContext,
  results: readonly RankedMemory[],
  filters: Pick<RecallInput, 'scope' | 'tags' | 'tier' | 'createdFrom' | 'createdTo'>,
  options: {
    readonly replacements?: boolean;
    /** The recall's query: a long memory's hit carries the passage that matches it (matching-passage.ts). */
    readonly query?: string;
  } = {},
): Promise<RecallHit[]> {
  const { query } = options;
  const withPassage = <Hit extends RecallHit>(hit: Hit): Hit => {
    const passage = query === undefined ? undefined : matchingPassage(hit.memory.content, query);
    return passage === undefined ? hit : { ...hit, passage };
  };
  const scoreOf = new Map(results.map((result) => [result.memory.id, result.score]));
  const now = engine.now();
  // Without replacements (a recall as of a past moment, where what replaced a hit later had not
  // been said yet), the hits are as ranked, each with when it was said.
  if (options.replacements === false) {
    return results.map((result) =>
      withPassage({
        memory: result.memory,
        score: result.score,
        said: formatInstant(result.memory.createdAt),
        ago: describeAge(result.memory.createdAt, now),
      }),
    );
  }
  const entries = await currentFirstEntries(
    engine,
    context,
    results.map((result) => result.memory),
    admitFilters(filters),
  );
  return entries.map((entry) =>
    withPassage({
      ...entry,
      score: scoreOf.get(entry.memory.id) ?? Math.max(0, ...(entry.replaces ?? []).map((id) => scoreOf.get(id) ?? 0)),
      said: formatInstant(entry.memory.createdAt),
      ago: describeAge(entry.memory.createdAt, now),
    }),
  );
}
