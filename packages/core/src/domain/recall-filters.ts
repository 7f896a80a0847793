import { jsonContains } from './json-containment.js';
import type { MemoryMarker, MemoryRecord, MemoryTier } from './memory.js';

/** Which memories a recall may return. */
export interface RecallFilters {
  /** One tier; both when undefined. */
  readonly tier?: MemoryTier | undefined;
  /** Exact scope; every scope when undefined, unscoped only when null. */
  readonly scope?: string | null | undefined;
  /** Memories carrying every one of these tags (the same all-of rule as list_memories). */
  readonly tags?: readonly string[] | undefined;
  /** Memories whose metadata contains this object (JSON containment). */
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
  readonly createdFrom?: Date | undefined;
  readonly createdTo?: Date | undefined;
  readonly includeSuperseded?: boolean | undefined;
  /** Only memories carrying this marker (listing; recall never sets it). */
  readonly marker?: MemoryMarker | undefined;
}

/** The filters of a read that may also show deleted (restorable) memories, or only them. */
export interface ReadFilters extends RecallFilters {
  readonly includeDeleted?: boolean | undefined;
  readonly onlyDeleted?: boolean | undefined;
}

/** The fields of a memory the filters look at. */
export type FilteredMemory = Pick<
  MemoryRecord,
  'tier' | 'scope' | 'tags' | 'metadata' | 'createdAt' | 'expiresAt' | 'deletedAt' | 'supersededBy' | 'pinned' | 'stale' | 'contradicted'
>;

/**
 * R-FILTER-ONE-RULE: whether a read at `at` with `filters` admits `memory` — the one rule of every
 * read (recall's candidates and the replacements it adds, list, load_context, an `asOf` read of
 * past versions). Live rows only: not deleted (unless asked), not an expired short-term row
 * (spec §3.2 rule 5); superseded rows only when asked; `tags` = carries all of them; `metadata` =
 * contains this object; the creation range inclusive. store-pg's filterMemories is its SQL
 * translation, and a test holds the two to the same answers on the same rows.
 */
export function admitsMemory(memory: FilteredMemory, filters: ReadFilters, at: Date): boolean {
  const unexpired = memory.tier === 'ltm' || (memory.expiresAt !== null && memory.expiresAt.getTime() > at.getTime());
  if (!unexpired) return false;
  if (filters.onlyDeleted ? memory.deletedAt === null : !filters.includeDeleted && memory.deletedAt !== null) return false;
  if (!filters.includeSuperseded && filters.marker !== 'superseded' && memory.supersededBy !== null) return false;
  if (filters.marker === 'superseded' && memory.supersededBy === null) return false;
  if (filters.marker === 'pinned' && !memory.pinned) return false;
  if (filters.marker === 'stale' && !memory.stale) return false;
  if (filters.marker === 'contradicted' && !memory.contradicted) return false;
  if (filters.tier !== undefined && memory.tier !== filters.tier) return false;
  if (filters.scope !== undefined && memory.scope !== filters.scope) return false;
  if (filters.tags && !filters.tags.every((tag) => memory.tags.includes(tag))) return false;
  if (filters.metadata !== undefined && !jsonContains(memory.metadata, filters.metadata)) return false;
  if (filters.createdFrom !== undefined && memory.createdAt.getTime() < filters.createdFrom.getTime()) return false;
  if (filters.createdTo !== undefined && memory.createdAt.getTime() > filters.createdTo.getTime()) return false;
  return true;
}
