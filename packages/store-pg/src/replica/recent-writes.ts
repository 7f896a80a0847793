import type { TenantId } from '@memsvc/core';

/** Tenants remembered one by one; past this, one barrier stands for all of them (memory stays bounded while a standby is away). */
const MAX_TENANTS = 50_000;

/**
 * Read-your-writes bookkeeping. Every completed write gets a number; a tenant's reads must wait
 * (that is, go to the primary) until the standby shows the tenant's last write, which it does
 * once the standby has replayed a primary position read after that write completed
 * (ReplayProgress turns replay positions into `visibleUpTo`). Nothing is asked of the database
 * per write: the price is that a tenant's reads go to the primary for up to one check interval
 * plus the replay lag after each of its writes.
 */
export class RecentWrites {
  #completed = 0;
  #visible = 0;
  /** Tenant → number of its last write, oldest first (a tenant writing again moves to the end). */
  readonly #lastWrite = new Map<TenantId, number>();
  #barrier = 0;

  /** Writes completed so far; read before the primary's position, so that position covers them. */
  get completed(): number {
    return this.#completed;
  }

  /** A write of this tenant completed (or failed: it may have committed all the same). */
  wrote(tenant: TenantId): void {
    this.#completed++;
    this.#lastWrite.delete(tenant);
    this.#lastWrite.set(tenant, this.#completed);
    if (this.#lastWrite.size > MAX_TENANTS) {
      this.#lastWrite.clear();
      this.#barrier = this.#completed;
    }
  }

  /** The standby shows every write up to this number. */
  visibleUpTo(writes: number): void {
    if (writes <= this.#visible) return;
    this.#visible = writes;
    for (const [tenant, last] of this.#lastWrite) {
      if (last > writes) break;
      this.#lastWrite.delete(tenant);
    }
  }

  /** Whether the standby may still lack a write of this tenant. */
  pending(tenant: TenantId): boolean {
    return Math.max(this.#lastWrite.get(tenant) ?? 0, this.#barrier) > this.#visible;
  }
}
