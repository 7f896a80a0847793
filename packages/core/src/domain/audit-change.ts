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
