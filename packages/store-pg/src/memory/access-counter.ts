import type { Clock, TenantId } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/**
 * Access counts of recalled memories, written in batches. Every recall counts an access for
 * each memory it returns; written one UPDATE per recall, eight concurrent recalls were eight
 * writes queued behind each other on PGlite's single connection. Accesses recorded in the same
 * turn of the event loop (from any tenant) are written by one statement after it, a memory
 * returned twice counting twice. An access count is a ranking hint: the batch is the tradeoff.
 */
export class AccessCounter {
  #pending = new Map<string, { tenant: TenantId; count: number }>();
  #flush: Promise<void> | undefined;

  constructor(
    private readonly db: () => Kysely<MemsvcDatabase>,
    private readonly clock: Clock,
  ) {}

  /** Counts one access of each id; resolves once the batch holding them is written. */
  record(tenant: TenantId, ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      const key = `${tenant}\u0000${id}`;
      const entry = this.#pending.get(key);
      if (entry) entry.count++;
      else this.#pending.set(key, { tenant, count: 1 });
    }
    this.#flush ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.write());
    return this.#flush;
  }

  /** Resolves once the accesses recorded so far are written (before the store closes). */
  settle(): Promise<void> {
    return this.#flush ?? Promise.resolve();
  }

  private async write(): Promise<void> {
    const batch = this.#pending;
    this.#pending = new Map();
    this.#flush = undefined;
    if (batch.size === 0) return;
    const ids: string[] = [];
    const tenants: string[] = [];
    const counts: number[] = [];
    for (const [key, { tenant, count }] of batch) {
      ids.push(key.slice(key.indexOf('\u0000') + 1));
      tenants.push(tenant);
      counts.push(count);
    }
    // The tenant travels with each id: a batch never counts an access on another tenant's row.
    await sql`
      UPDATE memories SET access_count = memories.access_count + counted.count, last_accessed_at = ${this.clock.now()}
      FROM unnest(${ids}::uuid[], ${tenants}::text[], ${counts}::int[]) AS counted (id, user_id, count)
      WHERE memories.id = counted.id AND memories.user_id = counted.user_id AND memories.deleted_at IS NULL`.execute(this.db());
  }
}
