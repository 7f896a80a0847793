import type { AuditEntry, JsonObject, MemoryRecord, MemoryTier } from '../domain/memory.js';
import type { TenantId } from '../domain/tenant.js';

/** Which memories of a tenant an export reads (issue 17), one keyset page at a time. */
export interface ExportQuery {
  readonly tier?: MemoryTier | undefined;
  /** Exact scope; every scope when undefined. */
  readonly scope?: string | undefined;
  /** Memories carrying ANY of these tags (an export gathers, where a recall narrows). */
  readonly tags?: readonly string[] | undefined;
  /** Inclusive bounds on `createdAt`. */
  readonly createdFrom?: Date | undefined;
  readonly createdTo?: Date | undefined;
  readonly includeDeleted: boolean;
  readonly includeSuperseded: boolean;
  /** Read the audit rows of the page's memories (the version history is built from them). */
  readonly includeAudit: boolean;
  readonly includeVectors: boolean;
  /** Keyset cursor: only memories whose id sorts after this one. */
  readonly after?: string | undefined;
  /** Memories per page. */
  readonly limit: number;
}

/** A memory with the stored fields an export carries beyond what tools show. */
export interface ExportedMemory extends MemoryRecord {
  /** Words the memory is also found by (NewMemory.searchContext); not derivable after the fact. */
  readonly searchContext: string | null;
  readonly embeddedAt: Date | null;
  /** The vector, read only when the query asked for vectors; null when the memory has none. */
  readonly vector?: readonly number[] | null;
}

/** A stored link between two memories (memory_links), from its source's side. */
export interface ExportedLink {
  readonly id: string;
  readonly sourceMemoryId: string;
  /** Null when the target was hard-deleted; `targetLocator` still names it. */
  readonly targetMemoryId: string | null;
  readonly targetLocator: string;
  readonly rel: string;
  readonly origin: 'authored' | 'derived';
  readonly score: number | null;
  readonly note: string | null;
  readonly metadata: JsonObject;
  readonly createdAt: Date;
}

/** One page of an export: memories in id order, and everything attached to them. */
export interface ExportPage {
  readonly memories: readonly ExportedMemory[];
  /** Links whose source is one of `memories`, in link id order. */
  readonly links: readonly ExportedLink[];
  /** Audit rows of `memories`, oldest first (empty unless asked for). */
  readonly audit: readonly AuditEntry[];
  /** The id of the last memory when more follow; undefined on the last page. */
  readonly nextCursor: string | undefined;
}

/**
 * The read an export is made of. Tenant-scoped like every store port; one bounded page per
 * call, in ascending id order, so a cursor stays valid while memories are written meanwhile.
 * Expired short-term memories are never read (spec §3.2 rule 5).
 */
export interface ExportStore {
  /** One page: INVALID_INPUT (field `cursor`) when `after` is not an id this store issued. */
  exportPage(tenant: TenantId, query: ExportQuery): Promise<ExportPage>;
}
