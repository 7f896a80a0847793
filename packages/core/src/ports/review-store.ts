import type { JsonObject, MemoryRecord } from '../domain/memory.js';
import type { TenantId } from '../domain/tenant.js';
import type { Actor, MemoryPage } from './memory-store.js';

/**
 * Two memories a write found contradicting each other (a `contradicts` link between them) that
 * are still open: both live and unsuperseded, at least one still marked contradicted.
 */
export interface ContradictedPair {
  /** The later-created of the two (ties: the larger id). */
  readonly newer: MemoryRecord;
  readonly older: MemoryRecord;
  /** The similarity the write measured (the link's score); null when none was recorded. */
  readonly similarity: number | null;
  /** When the contradiction was found (the newest of the pair's links). */
  readonly foundAt: Date;
}

export interface ContradictedPairPage {
  readonly pairs: readonly ContradictedPair[];
  /** Present when more pairs follow. Opaque to callers. */
  readonly nextCursor: string | undefined;
}

/** One memory whose contradicted mark a person's decision clears. */
export interface ContradictionClearance {
  readonly id: string;
  /** The version the person saw; the whole call fails with CONFLICT when it moved. Unchecked when absent. */
  readonly expectedVersion?: number | undefined;
}

/** How a clearance is recorded, and when it is left alone. */
export interface ClearanceOptions {
  readonly actor: Actor;
  /** The audit action (`contradiction-resolve`). */
  readonly action: string;
  /** Added to each audit row's after-snapshot: the outcome and the other memory of the pair. */
  readonly details: JsonObject;
  /** Leave the mark of a memory that still belongs to another open pair (see ContradictedPair). */
  readonly keepWhileOpen: boolean;
}

/**
 * The reads and the one write of the review queue (`/review`) that the memory store does not
 * offer. Every method takes the tenant first and every statement filters on it, as in MemoryStore;
 * deleted and expired rows are never returned.
 */
export interface ReviewStore {
  /** Open contradicted pairs, newest first (by the pair's later id, so paging is stable), at most `limit` (1–100). */
  contradictedPairs(
    tenant: TenantId,
    query: { readonly limit: number; readonly cursor?: string | undefined },
  ): Promise<ContradictedPairPage>;

  /** The open pair of these two memories in this tenant, in either order; undefined when there is none (or either is another tenant's). */
  contradictedPair(tenant: TenantId, firstId: string, secondId: string): Promise<ContradictedPair | undefined>;

  /**
   * Clears the contradicted mark of these memories in one transaction: each cleared memory gets a
   * new version and an audit row. A memory that is no longer marked, or that `keepWhileOpen`
   * keeps, is left as it is. NOT_FOUND when one is gone; CONFLICT when an expected version moved
   * (then nothing is written). Returns the cleared memories as they now are.
   */
  clearContradicted(
    tenant: TenantId,
    memories: readonly ContradictionClearance[],
    options: ClearanceOptions,
  ): Promise<readonly MemoryRecord[]>;

  /**
   * Live, unsuperseded long-term memories whose stored importance score (the decay scan keeps it
   * current) is at or below `maxScore`, lowest first, through the tenant's importance index.
   * `limit` 1–1000.
   */
  lowImportance(
    tenant: TenantId,
    query: { readonly maxScore: number; readonly limit: number; readonly cursor?: string | undefined },
  ): Promise<MemoryPage>;

  /** The live memories of this tenant among `ids` (at most 1000), in no particular order; other tenants' ids are skipped. */
  memoriesByIds(tenant: TenantId, ids: readonly string[]): Promise<readonly MemoryRecord[]>;
}
