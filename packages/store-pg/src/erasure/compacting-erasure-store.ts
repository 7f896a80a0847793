import { type Actor, type ErasureReceipt, MemsvcError, type TenantId } from '@memsvc/core';
import { PgErasureStore, type PgErasureStoreOptions } from './pg-erasure-store.js';
import type { PgliteCompaction } from './pglite-compaction.js';

/**
 * Erasure for good on a PGlite directory: an erasure returns its receipt only once the directory
 * has been compacted (pglite-compaction.ts), so the erased text is then in no file of it
 * (R-ERASE-PGLITE-FILES). Every caller gets this — the tools, the HTTP API, the CLI — because the
 * store decides it, not each app. A compaction that fails leaves the erasure committed: the error
 * says so, with the erasure's id, and `memsvc erase compact` runs the compaction again.
 */
export class CompactingErasureStore extends PgErasureStore {
  readonly #compaction: PgliteCompaction;

  constructor(options: PgErasureStoreOptions & { readonly compaction: PgliteCompaction }) {
    super(options);
    this.#compaction = options.compaction;
  }

  override async erase(tenant: TenantId, ids: readonly string[], actor: Actor): Promise<ErasureReceipt> {
    return this.#compacted(await super.erase(tenant, ids, actor));
  }

  override async eraseTenant(tenant: TenantId, actor: Actor, batchSize: number): Promise<ErasureReceipt> {
    return this.#compacted(await super.eraseTenant(tenant, actor, batchSize));
  }

  async #compacted(receipt: ErasureReceipt): Promise<ErasureReceipt> {
    try {
      await this.#compaction.run();
    } catch (error) {
      throw new MemsvcError(
        'STORAGE_UNAVAILABLE',
        `erasure ${receipt.erasureId} is done (its memories are gone from every table), but compacting the embedded database's files ` +
          `failed, so their text may remain on disk until a compaction succeeds: run \`memsvc erase compact\` (${(error as Error).message})`,
        { erasureId: receipt.erasureId },
        { cause: error },
      );
    }
    return receipt;
  }
}
