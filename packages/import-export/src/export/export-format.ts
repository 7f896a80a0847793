import type { AuditEntry, ExportedLink, ExportedMemory, ExportQuery, JsonValue, TenantId } from '@memsvc/core';
import { canonicalJson } from './canonical-json.js';

/** The `format` of line 1 of a memsvc JSONL export, and its version (docs/export-format.md). */
export const EXPORT_FORMAT = 'memsvc-export';
export const EXPORT_FORMAT_VERSION = 1;

/** Line 1 of an export: what it is, whose, when, and what was asked. */
export interface ExportHeader {
  readonly format: typeof EXPORT_FORMAT;
  readonly version: typeof EXPORT_FORMAT_VERSION;
  readonly exportedAt: string;
  readonly userId: TenantId;
  readonly filters: {
    readonly tier: string | null;
    readonly scope: string | null;
    readonly tags: readonly string[] | null;
    readonly createdFrom: string | null;
    readonly createdTo: string | null;
    readonly includeDeleted: boolean;
    readonly includeSuperseded: boolean;
  };
  readonly includes: { readonly history: boolean; readonly audit: boolean; readonly vectors: boolean };
}

/** The header of an export of `tenant` made at `now` (the one field that differs between two exports of the same data). */
export function exportHeader(tenant: TenantId, query: ExportQuery, includes: ExportHeader['includes'], now: Date): ExportHeader {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_FORMAT_VERSION,
    exportedAt: now.toISOString(),
    userId: tenant,
    filters: {
      tier: query.tier ?? null,
      scope: query.scope ?? null,
      tags: query.tags ? [...query.tags] : null,
      createdFrom: query.createdFrom?.toISOString() ?? null,
      createdTo: query.createdTo?.toISOString() ?? null,
      includeDeleted: query.includeDeleted,
      includeSuperseded: query.includeSuperseded,
    },
    includes: { history: includes.history, audit: includes.audit, vectors: includes.vectors },
  };
}

/** What goes with one memory onto its line. */
export interface MemoryLineParts {
  readonly memory: ExportedMemory;
  /** Its outgoing links, in id order. */
  readonly links: readonly ExportedLink[];
  /** Its audit rows, oldest first; read when history or audit is included. */
  readonly audit: readonly AuditEntry[];
  readonly includes: ExportHeader['includes'];
}

/**
 * One memory as one JSON line. Keys are written in a fixed order and free-form JSON
 * (metadata, snapshots) in canonical order, so the same stored memory always yields the same
 * bytes — the ground of the export → import → export round trip (issue 17). The owner is the
 * header's `userId`, so no line names a tenant: a file imports into another tenant unchanged.
 */
export function memoryLine(parts: MemoryLineParts): string {
  const { memory, includes } = parts;
  const line: Record<string, JsonValue> = {
    id: memory.id,
    tier: memory.tier,
    scope: memory.scope,
    content: memory.content,
    tags: [...memory.tags],
    metadata: canonicalJson(memory.metadata),
    importance: memory.importance,
    importanceScore: memory.importanceScore,
    pinned: memory.pinned,
    stale: memory.stale,
    contradicted: memory.contradicted,
    supersededBy: memory.supersededBy,
    replacedBy: memory.replacedBy ?? null,
    accessCount: memory.accessCount,
    lastAccessedAt: iso(memory.lastAccessedAt),
    expiresAt: iso(memory.expiresAt),
    deletedAt: iso(memory.deletedAt),
    version: memory.version,
    embeddingModel: memory.embeddingModel,
    searchContext: memory.searchContext,
    createdAt: memory.createdAt.toISOString(),
    updatedAt: memory.updatedAt.toISOString(),
    links: parts.links.map(linkJson),
  };
  if (includes.history) line.history = versionHistory(parts.audit);
  if (includes.audit) line.audit = parts.audit.map(auditJson);
  if (includes.vectors) {
    line.embedding =
      memory.vector === null || memory.vector === undefined ? null : { vector: [...memory.vector], embeddedAt: iso(memory.embeddedAt) };
  }
  return JSON.stringify(line);
}

function linkJson(link: ExportedLink): JsonValue {
  return {
    id: link.id,
    targetMemoryId: link.targetMemoryId,
    targetLocator: link.targetLocator,
    rel: link.rel,
    origin: link.origin,
    score: link.score,
    note: link.note,
    metadata: canonicalJson(link.metadata),
    createdAt: link.createdAt.toISOString(),
  };
}

/**
 * An audit row without its database id (another database numbers its rows differently; the
 * order of the array keeps the sequence) and without the tenant inside its snapshots.
 */
function auditJson(entry: AuditEntry): JsonValue {
  return {
    action: entry.action,
    actor: entry.actor,
    version: entry.version,
    before: snapshotJson(entry.before),
    after: snapshotJson(entry.after),
    createdAt: entry.createdAt.toISOString(),
  };
}

/**
 * The versions a memory went through, oldest first: each version's content, tags, metadata,
 * importance, pin and supersession as its audit snapshot recorded them (the snapshots
 * restore_memory reads). When several audit rows recorded one version (a mark that did not bump
 * it), the last one describes it.
 */
export function versionHistory(audit: readonly AuditEntry[]): JsonValue[] {
  const byVersion = new Map<number, JsonValue>();
  for (const entry of audit) {
    const after = entry.after;
    if (!after || typeof after.version !== 'number') continue;
    byVersion.set(after.version, {
      version: after.version,
      content: after.content ?? null,
      tags: canonicalJson(after.tags ?? []),
      metadata: canonicalJson(after.metadata ?? {}),
      importance: after.importance ?? null,
      pinned: after.pinned ?? false,
      supersededBy: after.supersededBy ?? null,
      action: entry.action,
      recordedAt: entry.createdAt.toISOString(),
    });
  }
  return [...byVersion.entries()].sort(([a], [b]) => a - b).map(([, version]) => version);
}

function snapshotJson(snapshot: AuditEntry['before']): JsonValue {
  if (snapshot === null) return null;
  const { userId: _owner, ...rest } = snapshot;
  return canonicalJson(rest);
}

function iso(date: Date | null): string | null {
  return date?.toISOString() ?? null;
}
