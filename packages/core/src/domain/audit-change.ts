import type { JsonObject } from './memory.js';

/**
 * What an audit entry keeps as `before`: the earlier value of each field the change altered,
 * compared as JSON (dates as ISO strings, as the audit stores them). The entry's `after` holds
 * the whole memory as the change left it, the snapshot a restore of that version reads, so a
 * full `before` repeated everything that did not change: on a memory with 64 KiB of metadata,
 * another 64 KiB for every pin toggle (issue 37 #5). Fields only `after` has (annotations such
 * as `restoredFromVersion`) are not changes. Without an `after` there is nothing to compare
 * with, and `before` stays whole.
 */
export function changedFieldsBefore(before: object | null, after: object | null): JsonObject | null {
  if (before === null) return null;
  const earlier = asJson(before);
  if (after === null) return earlier;
  const later = asJson(after);
  const changed: Record<string, JsonObject[string]> = {};
  for (const [field, value] of Object.entries(earlier)) {
    if (JSON.stringify(value) !== JSON.stringify(later[field])) changed[field] = value;
  }
  return changed;
}

function asJson(value: object): JsonObject {
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}

/** How much of a memory's audit trail keeps its values (docs/tools.md, "Limits"). */
export const AUDIT_LIMITS = {
  /**
   * A memory's newest entries that keep `before` and `after`; restore_memory can bring back the
   * versions they hold. Older entries are trimmed (trimmedAuditAfter). With every field at its
   * limit, this bounds a memory's audit to about 100 × 150 KB, however often it is updated.
   */
  snapshotsPerMemory: 100,
} as const;

/**
 * The `after` of an audit entry past a memory's AUDIT_LIMITS.snapshotsPerMemory newest ones (its
 * `before` becomes null): the entry still says who did what (its actor, action and version), when,
 * and which fields changed — the keys of its `before`, sorted; null for a create — but no longer
 * their values. Without this a single write key drove a memory's audit without bound (issue 37 #5).
 */
export function trimmedAuditAfter(before: JsonObject | null): JsonObject {
  return { trimmed: true, changed: before === null ? null : Object.keys(before).sort() };
}
