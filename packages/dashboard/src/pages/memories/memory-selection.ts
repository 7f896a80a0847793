import { isMemoryId } from '../memory/memory-paths.js';
import type { BulkProblem } from './memories-notices.js';

/** How many memories one bulk action takes: the engine's bulk limit, and twice a page of rows. */
export const BULK_MAX = 100;

/** What a bulk form asked for: the ids it carried, or why it cannot be acted on. */
export type Selection =
  | { readonly ok: true; readonly ids: readonly string[] }
  | { readonly ok: false; readonly problem: Extract<BulkProblem, 'none-selected' | 'too-many'> };

/**
 * The memory ids a bulk form carries (`ids`, repeated), each a memory id or left out, without
 * repeats. A row's own button (`only`) names one memory and wins over the ticked boxes, so
 * "Restore" on a row restores that row whatever else is ticked.
 */
export function selectionOf(form: Record<string, string | File | (string | File)[]>): Selection {
  const only = form.only;
  const sent = typeof only === 'string' && only !== '' ? [only] : [form.ids ?? []].flat();
  const ids = [...new Set(sent.filter((id): id is string => typeof id === 'string' && isMemoryId(id)))];
  if (ids.length === 0) return { ok: false, problem: 'none-selected' };
  if (ids.length > BULK_MAX) return { ok: false, problem: 'too-many' };
  return { ok: true, ids };
}

/** The ids an undo link carries (`?undo=`, repeated): memory ids only, at most BULK_MAX. */
export function undoIdsOf(values: readonly string[] | undefined): string[] {
  return [...new Set((values ?? []).filter(isMemoryId))].slice(0, BULK_MAX);
}
