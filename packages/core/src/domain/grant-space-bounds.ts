import type { MemoryRecord } from './memory.js';
import type { WriteCandidates } from './similarity-rules.js';

/**
 * R-GRANT-SUPERSEDES: a write made under a grant touches only memories inside the granted space
 * (one scope of its owner), decided here once. The write runs in the owner's tenant, so without
 * this bound anything keyed by tenant alone (a `supersedes` id, a candidate a store returned)
 * would reach spaces the grant never gave. `space` is undefined for a caller writing its own
 * memories: every memory of its tenant is its own.
 */
export function insideSpace(memory: Pick<MemoryRecord, 'scope'>, space: string | undefined): boolean {
  return space === undefined || memory.scope === space;
}

/**
 * The candidates a write under a grant may be compared with: only those inside the space, so it
 * never collapses into, contradicts or replaces a memory outside it. A store already compares a
 * write with its own scope only; this keeps the rule true whatever a store returns.
 */
export function candidatesInside<T extends WriteCandidates>(candidates: T, space: string | undefined): T {
  if (space === undefined) return candidates;
  return {
    ...candidates,
    exact: candidates.exact && insideSpace(candidates.exact, space) ? candidates.exact : undefined,
    neighbours: candidates.neighbours.filter((neighbour) => insideSpace(neighbour.memory, space)),
    ...(candidates.related ? { related: candidates.related.filter((memory) => insideSpace(memory, space)) } : {}),
  };
}
