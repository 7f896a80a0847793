import { MemsvcError } from '../errors/memsvc-error.js';
import type { JsonObject } from './memory.js';
import { isStorableText, unstorableTextAt } from './storable-text.js';

/** Documented input limits (docs/tools.md, "Limits"); every violation is INVALID_INPUT naming the field. */
export const MEMORY_LIMITS = {
  contentMaxChars: 10_240,
  tagsMax: 50,
  tagMaxChars: 100,
  scopeMaxChars: 256,
  metadataMaxBytes: 65_536,
  /** Objects and arrays inside one another; deeper would overflow the stack of whatever walks it. */
  metadataMaxDepth: 32,
  ttlMinSeconds: 60,
  ttlMaxSeconds: 604_800,
  /** Short-term lifetime when none is given: one day. */
  ttlDefaultSeconds: 86_400,
} as const;

function invalid(field: string, message: string): MemsvcError {
  return new MemsvcError('INVALID_INPUT', `${field} ${message}`, { field });
}

const UNSTORABLE_TEXT = 'contains a NUL character or an unpaired surrogate, which cannot be stored';

/** Content: non-blank, at most 10,240 characters. */
export function checkContent(content: string, field = 'content'): string {
  if (content.trim().length === 0) throw invalid(field, 'must not be empty');
  if (!isStorableText(content)) throw invalid(field, UNSTORABLE_TEXT);
  if (content.length > MEMORY_LIMITS.contentMaxChars) {
    throw invalid(field, `is ${content.length} characters; the limit is ${MEMORY_LIMITS.contentMaxChars}`);
  }
  return content;
}

/** Tags: trimmed, de-duplicated, at most 50 of at most 100 characters each. */
export function checkTags(tags: readonly string[] | undefined): string[] {
  const cleaned = [...new Set((tags ?? []).map((tag) => tag.trim()))];
  if (cleaned.length > MEMORY_LIMITS.tagsMax) throw invalid('tags', `has ${cleaned.length} tags; the limit is ${MEMORY_LIMITS.tagsMax}`);
  for (const tag of cleaned) {
    if (tag.length === 0 || tag.length > MEMORY_LIMITS.tagMaxChars)
      throw invalid('tags', `entries must be 1 to ${MEMORY_LIMITS.tagMaxChars} characters`);
    if (!isStorableText(tag)) throw invalid('tags', UNSTORABLE_TEXT);
  }
  return cleaned;
}

/** Scope: 1 to 256 characters; undefined or null means unscoped. */
export function checkScope(scope: string | null | undefined): string | null {
  if (scope === undefined || scope === null) return null;
  if (scope.length === 0 || scope.length > MEMORY_LIMITS.scopeMaxChars)
    throw invalid('scope', `must be 1 to ${MEMORY_LIMITS.scopeMaxChars} characters`);
  if (!isStorableText(scope)) throw invalid('scope', UNSTORABLE_TEXT);
  return scope;
}

/** Metadata: a plain JSON object of at most 64 KiB. */
export function checkMetadata(metadata: unknown): JsonObject {
  if (metadata === undefined) return {};
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) throw invalid('metadata', 'must be a JSON object');
  if (nestingExceeds(metadata, MEMORY_LIMITS.metadataMaxDepth)) {
    throw invalid('metadata', `is nested more than ${MEMORY_LIMITS.metadataMaxDepth} levels deep`);
  }
  const unstorable = unstorableTextAt(metadata, ['metadata']);
  if (unstorable !== undefined) throw invalid(unstorable, UNSTORABLE_TEXT);
  const size = metadataSize(metadata);
  if (size > MEMORY_LIMITS.metadataMaxBytes)
    throw invalid('metadata', `is ${size} bytes as JSON; the limit is ${MEMORY_LIMITS.metadataMaxBytes}`);
  return metadata as JsonObject;
}

/**
 * The metadata an update stores: the current metadata merged with a checked patch, held to the
 * same size limit as a new memory's. Checking the patch alone let a caller grow a memory far past
 * the limit, one allowed patch at a time (issue 37 #5).
 */
export function checkMergedMetadata(current: JsonObject, patch: JsonObject): JsonObject {
  const merged = mergeMetadata(current, patch);
  const size = metadataSize(merged);
  if (size > MEMORY_LIMITS.metadataMaxBytes) {
    throw invalid(
      'metadata',
      `would be ${size} bytes as JSON once merged into the stored metadata; the limit is ${MEMORY_LIMITS.metadataMaxBytes} (set keys to null to remove them)`,
    );
  }
  return merged;
}

/** The size the metadata limit counts: the length of its JSON text. */
function metadataSize(metadata: object): number {
  return JSON.stringify(metadata).length;
}

/** Whether objects or arrays sit more than `limit` levels inside `value`; iterative, so any depth is safe to ask about. */
export function nestingExceeds(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/** Importance: a number from 0 to 1, or null for "not said". */
export function checkImportance(importance: number | null | undefined): number | null {
  if (importance === undefined || importance === null) return null;
  if (!Number.isFinite(importance) || importance < 0 || importance > 1) throw invalid('importance', 'must be a number from 0 to 1');
  return importance;
}

/** Short-term lifetime in seconds: 60 to 604,800 (a week); one day when not given. */
export function checkTtlSeconds(ttl: number | undefined): number {
  if (ttl === undefined) return MEMORY_LIMITS.ttlDefaultSeconds;
  if (!Number.isInteger(ttl) || ttl < MEMORY_LIMITS.ttlMinSeconds || ttl > MEMORY_LIMITS.ttlMaxSeconds) {
    throw invalid('ttl', `must be a whole number of seconds from ${MEMORY_LIMITS.ttlMinSeconds} to ${MEMORY_LIMITS.ttlMaxSeconds}`);
  }
  return ttl;
}

/**
 * Merges a metadata update into the current metadata: keys in the update replace, a key set to
 * null is removed, everything else stays. (An earlier implementation replaced the whole object,
 * so a client could erase keys it did not know about.)
 */
export function mergeMetadata(current: JsonObject, update: JsonObject): JsonObject {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged as JsonObject;
}
