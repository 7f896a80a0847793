import type { Clock, TenantId } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import { retryingLockConflicts } from '../connection/lock-conflicts.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';

type Batch = Map<string, { tenant: TenantId; count: number }>;

/**
 * Access counts of recalled memories, written in batches. Every recall counts an access for
 * each memory it returns; written one UPDATE per recall, eight concurrent recalls were eight
 * writes queued behind each other on PGlite's single connection. Accesses recorded in the same
 * turn of the event loop (from any tenant) are written by one statement after it, a memory
 * returned twice counting twice. An access count is a ranking hint: the batch is the tradeoff.
 *
 * One batch is written at a time: accesses recorded while one is being written wait for it and
 * go into the next. Two batches in flight on a pool's two connections locked overlapping rows in
 * opposite orders and deadlocked (measured: eight concurrent recall clients on PostgreSQL lost
 * whole batches to `deadlock detected`). Rows are also locked in id order, as writes lock them,
 * so a batch of another replica cannot close a cycle either; a lock conflict reruns the batch.
 */
export class AccessCounter {
  #pending: Batch = new Map();
  /** The batch that collects new accesses, once scheduled; it writes after `#writing`. */
  #next: Promise<void> | undefined;
  /** The batch being written, if any. */
  #writing: Promise<void> | undefined;

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
    this.#next ??= this.scheduleNext();
    return this.#next;
  }

  /** Resolves once the accesses recorded so far are written (before the store closes). */
  async settle(): Promise<void> {
    while (this.#next ?? this.#writing) await (this.#next ?? this.#writing)?.catch(() => undefined);
  }

  private async scheduleNext(): Promise<void> {
    // After this turn of the event loop (so the recalls of the same moment share the batch) and
    // after the batch being written, whichever comes later.
    await Promise.all([new Promise<void>((resolve) => setImmediate(resolve)), this.#writing?.catch(() => undefined)]);
    const batch = this.#pending;
    this.#pending = new Map();
    this.#next = undefined;
    const writing = this.write(batch);
    this.#writing = writing;
    try {
      await writing;
    } finally {
      if (this.#writing === writing) this.#writing = undefined;
    }
  }

  private async write(batch: Batch): Promise<void> {
    if (batch.size === 0) return;
    const ids: string[] = [];
    const tenants: string[] = [];
    const counts: number[] = [];
    for (const [key, { tenant, count }] of batch) {
      ids.push(key.slice(key.indexOf('\u0000') + 1));
      tenants.push(tenant);
      counts.push(count);
    }
    const now = this.clock.now();
    // The tenant travels with each id: a batch never counts an access on another tenant's row.
    await retryingLockConflicts(() =>
      sql`
        WITH locked AS (
          SELECT memories.id, counted.count
          FROM memories
          JOIN unnest(${ids}::uuid[], ${tenants}::text[], ${counts}::int[]) AS counted (id, user_id, count)
            ON memories.id = counted.id AND memories.user_id = counted.user_id
          WHERE memories.deleted_at IS NULL
          ORDER BY memories.id
          FOR NO KEY UPDATE OF memories
        )
        UPDATE memories SET access_count = memories.access_count + locked.count, last_accessed_at = ${now}
        FROM locked WHERE memories.id = locked.id`.execute(this.db()),
    );
  }
}
