import type { MemoryEmbedding, MemoryRecord, MemoryTier, NewMemory } from '../domain/memory.js';
import type { TenantId } from '../domain/tenant.js';

/** Who did something, for the audit trail. */
export interface Actor {
  /** `agent:<api-key-id>`, `user:<id>`, `system:<job>`, `local`, … */
  readonly id: string;
}

export interface ListMemoriesQuery {
  readonly tier?: MemoryTier;
  /** 1–1000. */
  readonly limit: number;
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string;
  readonly includeDeleted?: boolean;
}

export interface MemoryPage {
  readonly items: readonly MemoryRecord[];
  /** Present when more rows follow. Opaque to callers. */
  readonly nextCursor: string | undefined;
}

export interface NearestMemory {
  readonly memory: MemoryRecord;
  /** Cosine similarity in [-1, 1]. */
  readonly similarity: number;
}

/**
 * Persistence of memories. Every method takes the tenant as its first, required argument and
 * every query filters on it: there is no way to read across tenants through this port. Expired
 * short-term rows are invisible to every read (spec §3.2 rule 5), deleted rows unless asked for.
 * Every mutation writes an audit row in the same transaction.
 */
export interface MemoryStore {
  /** Inserts a memory (with its embedding when given) and returns it. */
  insert(tenant: TenantId, memory: NewMemory, actor: Actor): Promise<MemoryRecord>;

  /** The memory with this id in this tenant, or undefined (also for another tenant's id). */
  findById(tenant: TenantId, id: string, options?: { includeDeleted?: boolean }): Promise<MemoryRecord | undefined>;

  /** A page of memories, newest first, stable under concurrent inserts. */
  list(tenant: TenantId, query: ListMemoriesQuery): Promise<MemoryPage>;

  /** Marks a memory deleted; false when there was no live memory with that id in this tenant. */
  softDelete(tenant: TenantId, id: string, actor: Actor): Promise<boolean>;

  /** Stores (or replaces) the vector of a memory; false when the memory is not there. */
  setEmbedding(tenant: TenantId, id: string, embedding: MemoryEmbedding): Promise<boolean>;

  /** The live memories nearest to `vector` by cosine similarity, most similar first. */
  nearest(tenant: TenantId, vector: readonly number[], limit: number): Promise<readonly NearestMemory[]>;
}
