import type { JsonObject, MemoryTier } from '../domain/memory.js';
import type { TenantId } from '../domain/tenant.js';

/** An outgoing link of an imported memory, as the export wrote it. */
export interface ImportedLink {
  readonly id: string;
  /** Null when the target was hard-deleted before the export; `targetLocator` still names it. */
  readonly targetMemoryId: string | null;
  readonly targetLocator: string;
  readonly rel: string;
  readonly origin: 'authored' | 'derived';
  readonly score: number | null;
  readonly note: string | null;
  readonly metadata: JsonObject;
  readonly createdAt: Date;
}

/** One audit row of an imported memory; snapshots carry no owner (the store adds the target tenant). */
export interface ImportedAuditRow {
  readonly action: string;
  readonly actor: string;
  readonly version: number | null;
  readonly before: JsonObject | null;
  readonly after: JsonObject | null;
  readonly createdAt: Date;
}

/**
 * A memory exactly as another memsvc stored it: every stored field, ready to be written into a
 * tenant unchanged. The derived columns (content hash, full-text, lexical postings) are the
 * store's to rebuild.
 */
export interface ImportedMemory {
  readonly id: string;
  readonly tier: MemoryTier;
  readonly scope: string | null;
  readonly content: string;
  readonly tags: readonly string[];
  readonly metadata: JsonObject;
  readonly importance: number | null;
  readonly importanceScore: number;
  readonly pinned: boolean;
  readonly stale: boolean;
  readonly contradicted: boolean;
  readonly supersededBy: string | null;
  /** The newer memory that changed this one's fact (a visible marker; absent in files from before it existed). */
  readonly replacedBy: string | null;
  readonly accessCount: number;
  readonly lastAccessedAt: Date | null;
  readonly expiresAt: Date | null;
  readonly deletedAt: Date | null;
  readonly version: number;
  readonly embeddingModel: string | null;
  readonly searchContext: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly links: readonly ImportedLink[];
  /** Oldest first; empty when the file carried neither audit nor history. */
  readonly audit: readonly ImportedAuditRow[];
  /** The stored vector, when the file carried one; kept only if it fits the vector space. */
  readonly embedding: { readonly vector: readonly number[]; readonly embeddedAt: Date | null } | null;
}

/** What writing (or, on a dry run, checking) one file's memories came to. */
export interface ImportWriteResult {
  /** Memories written (or that would be, on a dry run). */
  readonly created: number;
  /** Memories whose id the tenant already holds: left as they are (a re-import is idempotent). */
  readonly skipped: number;
  /** Vectors dropped because their size does not fit the vector space (a reindex fills them). */
  readonly vectorsDropped: number;
}

/**
 * Bulk writes of imported memories (issue 17). Unlike the write path, nothing is deduplicated,
 * re-scored or re-versioned: an import restores what a memsvc stored, ids and all.
 */
export interface ImportStore {
  /**
   * Writes `memories` into `tenant` in ONE transaction: all of them or, on any failure, none.
   * A memory id the tenant already holds is skipped and counted; an id (of a memory or a link)
   * held by another tenant fails the whole call with CONFLICT naming it. With `dryRun` the same
   * checks run and the counts are returned, but nothing is written.
   */
  importMemories(tenant: TenantId, memories: readonly ImportedMemory[], options: { readonly dryRun: boolean }): Promise<ImportWriteResult>;
}
