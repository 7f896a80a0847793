import type { ErasureCheck, ErasureReceipt } from '../domain/erasure.js';
import type { TenantId } from '../domain/tenant.js';
import type { Actor } from './memory-store.js';

/** An earlier erasure that took a memory, for a caller asking for it again. */
export interface ErasureOfMemory {
  readonly erasureId: string;
  readonly erasedAt: Date;
}

/**
 * Erasure for good (issue 43): every place a memory is kept, in one transaction per call, and a
 * record of what was erased that a later check can hold against the database.
 */
export interface ErasureStore {
  /**
   * Erases `ids` of `tenant` — live, deleted or retired alike — everywhere (ERASURE_PLACES), in
   * one transaction, and records it; the quotes of every version of them in other memories'
   * search contexts go too (core's quotesOfVersions and searchContextWithout). Nothing
   * changes when one id is not the tenant's memory (NOT_FOUND naming it) or was erased already
   * (ERASED naming the earlier erasure).
   */
  erase(tenant: TenantId, ids: readonly string[], actor: Actor): Promise<ErasureReceipt>;

  /**
   * Erases every memory of `tenant` in batches, each its own transaction, under one record that
   * stays `pending` until the last batch: a run cut short (a killed process) is finished by the
   * next call, and until then every memory of the tenant is hidden (deleted) from every read.
   * Every grant the user gave or received, and their defaults, go in the first transaction (and
   * any made meanwhile in the last): no grantee sees the user's space names after it starts.
   */
  eraseTenant(tenant: TenantId, actor: Actor, batchSize: number): Promise<ErasureReceipt>;

  /** The erasure that took memory `id` of `tenant`, if one did. */
  erasureOf(tenant: TenantId, id: string): Promise<ErasureOfMemory | undefined>;

  /** Checks a recorded erasure of `tenant` against the database now; undefined for an unknown one. */
  check(tenant: TenantId, erasureId: string): Promise<ErasureCheck | undefined>;
}
