import type { AuditEntry, JsonObject, JsonValue } from '@memsvc/core';

/** What a version of a memory held, read from an audit snapshot (`after`). */
export interface VersionSnapshot {
  readonly version: number;
  readonly content: string;
  readonly tags: readonly string[];
  readonly scope: string | null;
  readonly metadata: JsonObject;
  readonly tier: string;
  readonly importance: number | null;
  readonly pinned: boolean;
  readonly deleted: boolean;
}

/** One version as the history shows it: who made it, how, and what it held. */
export interface MemoryVersion {
  readonly snapshot: VersionSnapshot;
  /** The audit action that made this version (`create`, `update`, `restore`, …). */
  readonly action: string;
  readonly actor: string;
  readonly at: Date;
  /** The version a `restore` brought back. */
  readonly restoredFrom: number | undefined;
}

/**
 * The versions an audit trail shows, newest first. Each version's snapshot is its newest audit
 * `after` (marks set later without a new version, such as a contradiction flag, land there); its
 * maker is the oldest entry that reached it. Entries whose snapshot is unreadable are skipped:
 * the history shows what the trail can prove, never a guess.
 */
export function versionsOf(audit: readonly AuditEntry[]): MemoryVersion[] {
  const oldestFirst = [...audit].sort((a, b) => a.id - b.id);
  const versions = new Map<number, MemoryVersion>();
  for (const entry of oldestFirst) {
    const snapshot = entry.after === null ? undefined : snapshotOf(entry.after);
    if (!snapshot) continue;
    const made = versions.get(snapshot.version);
    const restoredFrom = entry.after?.restoredFromVersion;
    versions.set(
      snapshot.version,
      made
        ? { ...made, snapshot }
        : {
            snapshot,
            action: entry.action,
            actor: entry.actor,
            at: entry.createdAt,
            restoredFrom: typeof restoredFrom === 'number' ? restoredFrom : undefined,
          },
    );
  }
  return [...versions.values()].sort((a, b) => b.snapshot.version - a.snapshot.version);
}

/** A snapshot as stored (a MemoryRecord as JSON), or undefined when it is not one. */
export function snapshotOf(after: JsonObject): VersionSnapshot | undefined {
  const { version, content } = after;
  if (typeof version !== 'number' || !Number.isInteger(version) || typeof content !== 'string') return undefined;
  return {
    version,
    content,
    tags: Array.isArray(after.tags) ? after.tags.filter((tag): tag is string => typeof tag === 'string') : [],
    scope: typeof after.scope === 'string' ? after.scope : null,
    metadata: isObject(after.metadata) ? after.metadata : {},
    tier: typeof after.tier === 'string' ? after.tier : '',
    importance: typeof after.importance === 'number' ? after.importance : null,
    pinned: after.pinned === true,
    deleted: after.deletedAt !== null && after.deletedAt !== undefined,
  };
}

/** A change of one field between two versions, as text (content and metadata are diffed apart). */
export interface FieldChange {
  readonly field: string;
  readonly before: string;
  readonly after: string;
}

/** The simple fields that differ from `earlier` to `later`, in words a person reads. */
export function fieldChanges(earlier: VersionSnapshot, later: VersionSnapshot): FieldChange[] {
  const yesNo = (value: boolean) => (value ? 'yes' : 'no');
  const fields: [string, string, string][] = [
    ['tier', earlier.tier, later.tier],
    ['scope', earlier.scope ?? '—', later.scope ?? '—'],
    ['importance', earlier.importance?.toString() ?? 'not stated', later.importance?.toString() ?? 'not stated'],
    ['pinned', yesNo(earlier.pinned), yesNo(later.pinned)],
    ['deleted', yesNo(earlier.deleted), yesNo(later.deleted)],
  ];
  return fields.filter(([, before, after]) => before !== after).map(([field, before, after]) => ({ field, before, after }));
}

/** Tags a version added and removed. */
export function tagChanges(earlier: VersionSnapshot, later: VersionSnapshot): { added: string[]; removed: string[] } {
  return {
    added: later.tags.filter((tag) => !earlier.tags.includes(tag)),
    removed: earlier.tags.filter((tag) => !later.tags.includes(tag)),
  };
}

/** Metadata as the page shows it: indented JSON text (never parsed back, never HTML). */
export function metadataText(metadata: JsonObject): string {
  return JSON.stringify(metadata, null, 2);
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
