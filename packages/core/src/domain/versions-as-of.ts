import { MemsvcError } from '../errors/memsvc-error.js';
import type { AuditEntry, JsonObject, MemoryRecord } from './memory.js';
import { MEMORY_TIERS, type MemoryTier } from './memory.js';
import { admitsMemory, type RecallFilters } from './recall-filters.js';
import type { TenantId } from './tenant.js';

/**
 * Most memories an `asOf` read looks at: the tenant's newest memories (by id) that existed at
 * that moment. An `asOf` read rebuilds every one of them from the audit, so it is bounded; past
 * this, the oldest are left out and the answer says so (`truncated`).
 */
export const AS_OF_MAX_MEMORIES = 10_000;

/** A tenant's memories as they were at a moment, rebuilt from the audit (R-ASOF-VERSIONS). */
export interface MemoriesAsOf {
  /** Every memory that existed then, as it was then (deleted, expired and superseded ones included), newest first. */
  readonly memories: readonly MemoryRecord[];
  /**
   * Memories that existed then whose version of then is no longer kept (R-ASOF-TRIMMED): the
   * audit keeps the values of a memory's newest AUDIT_LIMITS.snapshotsPerMemory changes only.
   * They are left out, never shown with a later version's values.
   */
  readonly unavailable: number;
  /** The tenant had more than AS_OF_MAX_MEMORIES memories then; the oldest were not read. */
  readonly truncated: boolean;
}

/**
 * R-ASOF-INPUT: an `asOf` must be a real moment, not in the future (the clock's now), and not
 * before the tenant's first memory (`tenantHadMemories` says whether the audit has any change
 * of the tenant by then). The error names `asOf`.
 */
export function checkAsOf(asOf: Date, now: Date): Date {
  if (!(asOf instanceof Date) || Number.isNaN(asOf.getTime())) {
    throw new MemsvcError('INVALID_INPUT', 'asOf must be an ISO 8601 date or date-time', { field: 'asOf' });
  }
  if (asOf.getTime() > now.getTime()) {
    throw new MemsvcError('INVALID_INPUT', `asOf ${asOf.toISOString()} is in the future; it must be a past moment`, { field: 'asOf' });
  }
  return asOf;
}

/** The error of an `asOf` before the tenant's first memory. */
export function beforeFirstMemory(asOf: Date): MemsvcError {
  return new MemsvcError('INVALID_INPUT', `asOf ${asOf.toISOString()} is before your first memory: there is nothing to answer from`, {
    field: 'asOf',
  });
}

/**
 * The memories the newest audit entries at a moment describe: each entry's `after` is the whole
 * memory as that change left it (audit-change.ts), so it is the memory as it was until the next
 * change. A trimmed entry (`{trimmed: true}`) or one without a snapshot counts as unavailable.
 */
export function memoriesFromEntries(tenant: TenantId, entries: readonly AuditEntry[], truncated: boolean): MemoriesAsOf {
  const memories: MemoryRecord[] = [];
  let unavailable = 0;
  for (const entry of entries) {
    const memory = entry.after ? memoryFromSnapshot(tenant, entry.memoryId, entry.after) : undefined;
    if (memory) memories.push(memory);
    else unavailable += 1;
  }
  return { memories, unavailable, truncated };
}

/**
 * R-ASOF-VISIBLE: what a read at `at` would have returned: core's one filter rule (admitsMemory)
 * applied to the version of then — not deleted then, not an expired short-term memory then,
 * superseded only when asked, and the read's own filters.
 */
export function visibleAt(memory: MemoryRecord, at: Date, filters: RecallFilters): boolean {
  return admitsMemory(memory, { ...filters, includeDeleted: false, onlyDeleted: false }, at);
}

/** A memory from an audit snapshot (dates as ISO strings, as a JSON column keeps them); undefined when it is not one. */
function memoryFromSnapshot(tenant: TenantId, id: string, snapshot: JsonObject): MemoryRecord | undefined {
  if (snapshot.trimmed === true || typeof snapshot.content !== 'string') return undefined;
  const tier = snapshot.tier as MemoryTier;
  const createdAt = dateOf(snapshot.createdAt);
  if (!MEMORY_TIERS.includes(tier) || createdAt === null) return undefined;
  const number = (value: unknown, fallback: number) => (typeof value === 'number' ? value : fallback);
  return {
    id,
    userId: tenant,
    tier,
    scope: typeof snapshot.scope === 'string' ? snapshot.scope : null,
    content: snapshot.content,
    tags: Array.isArray(snapshot.tags) ? snapshot.tags.map(String) : [],
    metadata: isObject(snapshot.metadata) ? snapshot.metadata : {},
    importance: typeof snapshot.importance === 'number' ? snapshot.importance : null,
    importanceScore: number(snapshot.importanceScore, 0.5),
    accessCount: number(snapshot.accessCount, 0),
    lastAccessedAt: dateOf(snapshot.lastAccessedAt),
    expiresAt: dateOf(snapshot.expiresAt),
    pinned: snapshot.pinned === true,
    stale: snapshot.stale === true,
    contradicted: snapshot.contradicted === true,
    supersededBy: typeof snapshot.supersededBy === 'string' ? snapshot.supersededBy : null,
    deletedAt: dateOf(snapshot.deletedAt),
    version: number(snapshot.version, 1),
    embeddingModel: typeof snapshot.embeddingModel === 'string' ? snapshot.embeddingModel : null,
    hasEmbedding: snapshot.hasEmbedding === true,
    createdAt,
    updatedAt: dateOf(snapshot.updatedAt) ?? createdAt,
  };
}

function dateOf(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
