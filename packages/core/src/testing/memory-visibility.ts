import type { RecallFilters } from '../ports/memory-store.js';
import { jsonContains } from './json-containment.js';
import type { StoredMemory } from './stored-memory.js';

/** Live for reads at `now`: not deleted, and not an expired short-term row (spec §3.2 rule 5). */
export function isLiveAt(row: StoredMemory, now: Date): boolean {
  return row.deletedAt === null && isUnexpiredAt(row, now);
}

/** Not expired at `now` (deleted rows included), for reads that ask for deleted rows too. */
export function isUnexpiredAt(row: StoredMemory, now: Date): boolean {
  return row.tier === 'ltm' || (row.expiresAt !== null && row.expiresAt.getTime() > now.getTime());
}

/** Same scope, with "unscoped" matching only unscoped rows. */
export function inScope(row: StoredMemory, scope: string | null): boolean {
  return row.scope === scope;
}

/**
 * The one set of filters every read uses (list, most important, recall), as the SQL stores
 * apply them: live rows (deleted ones too, or only, when asked); superseded rows only when asked; `tags` =
 * carries all of them; `metadata` = contains this object; the creation range inclusive.
 */
export function matchesFilters(
  row: StoredMemory,
  filters: RecallFilters & { includeDeleted?: boolean | undefined; onlyDeleted?: boolean | undefined },
  now: Date,
): boolean {
  if (filters.onlyDeleted) {
    if (row.deletedAt === null || !isUnexpiredAt(row, now)) return false;
  } else if (!(filters.includeDeleted ? isUnexpiredAt(row, now) : isLiveAt(row, now))) return false;
  if (!filters.includeSuperseded && filters.marker !== 'superseded' && row.supersededBy !== null) return false;
  if (filters.marker === 'superseded' && row.supersededBy === null) return false;
  if (filters.marker === 'pinned' && !row.pinned) return false;
  if (filters.marker === 'stale' && !row.stale) return false;
  if (filters.marker === 'contradicted' && !row.contradicted) return false;
  if (filters.tier !== undefined && row.tier !== filters.tier) return false;
  if (filters.scope !== undefined && !inScope(row, filters.scope)) return false;
  if (filters.tags && !filters.tags.every((tag) => row.tags.includes(tag))) return false;
  if (filters.metadata !== undefined && !jsonContains(row.metadata, filters.metadata)) return false;
  if (filters.createdFrom !== undefined && row.createdAt.getTime() < filters.createdFrom.getTime()) return false;
  if (filters.createdTo !== undefined && row.createdAt.getTime() > filters.createdTo.getTime()) return false;
  return true;
}

/** Newest first: ids sort by creation time (IdGenerator's contract). */
export function newestFirst(a: { readonly id: string }, b: { readonly id: string }): number {
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
