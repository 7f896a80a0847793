import { admitsMemory, type ReadFilters } from '../domain/recall-filters.js';
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

/** core's one filter rule (admitsMemory), as the in-memory store applies it to its rows. */
export function matchesFilters(row: StoredMemory, filters: ReadFilters, now: Date): boolean {
  return admitsMemory(row, filters, now);
}

/** Newest first: ids sort by creation time (IdGenerator's contract). */
export function newestFirst(a: { readonly id: string }, b: { readonly id: string }): number {
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
