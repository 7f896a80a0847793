import {
  type Actor,
  type AuditEntry,
  isMemsvcError,
  type ListMemoriesQuery,
  type MemoryEmbedding,
  type MemoryLinkRecord,
  type MemoryPage,
  type MemoryPatch,
  type MemoryRecord,
  type MemoryStore,
  type NearestMemory,
  type NewMemory,
  type NewMemoryUnit,
  type PrecedingMemoryQuery,
  type PromotionUnit,
  type RecallCandidate,
  type RecallCandidateQuery,
  type TenantId,
  type UpdateUnit,
  type VersionsAsOf,
  type VersionsAsOfQuery,
} from '@memsvc/core';
import type { PgMemoryStore } from '../memory/pg-memory-store.js';
import type { RecentWrites } from './recent-writes.js';
import type { ReplicaMonitor } from './replica-monitor.js';
import type { ReplicaEvents } from './replica-status.js';

export interface ReplicaRoutedMemoryStoreOptions {
  /** The store on DATABASE_URL: every write, and every read the standby may not serve. */
  readonly primary: PgMemoryStore;
  /** The same store opened on the hot standby: read-only. */
  readonly replica: PgMemoryStore;
  readonly monitor: ReplicaMonitor;
  readonly writes: RecentWrites;
  readonly events: ReplicaEvents;
}

/**
 * The MemoryStore port with the read tools' reads served by a hot standby. Which method goes
 * where is decided here, method by method:
 * - to the standby, when the monitor allows it: recall's candidates, list, most important
 *   (load_context), the audit trail, links, nearest, and the replacements and links a recall's
 *   hits name (findLiveByIds, linksOf) — reads that change nothing;
 * - to the primary, always: every write (a standby refuses them: "cannot execute UPDATE in a
 *   read-only transaction"), and reads that write or prepare a write: `readCountingAccess`
 *   (get_memory counts the access in the same statement), `recordAccess` (recall's access
 *   counts), recall's candidates when they are `current` (forget with confirm deletes them), `findById` (update, promote, reembed and restore read the row they then change;
 *   a stale copy would merge metadata into an old version), `precedingMemories` (part of a
 *   write's search context).
 * A completed write marks its tenant, whose reads then go to the primary until the standby
 * shows that write (read-your-writes). Counting an access does not mark it: an access count
 * is a ranking hint, and marking every recall would keep busy tenants off the standby.
 * A read on the standby that fails is answered by the primary (never an error to the caller).
 */
export class ReplicaRoutedMemoryStore implements MemoryStore {
  constructor(private readonly options: ReplicaRoutedMemoryStoreOptions) {}

  private get primary(): PgMemoryStore {
    return this.options.primary;
  }

  // Writes: on the primary, and the tenant's reads wait for the standby to show them.

  insertAsGiven(tenant: TenantId, memory: NewMemory, actor: Actor): Promise<MemoryRecord> {
    return this.writing(tenant, () => this.primary.insertAsGiven(tenant, memory, actor));
  }

  writeUnit<T>(tenant: TenantId, actor: Actor, memory: NewMemory, work: (unit: NewMemoryUnit) => Promise<T>): Promise<T> {
    return this.writing(tenant, () => this.primary.writeUnit(tenant, actor, memory, work));
  }

  promotionUnit<T>(tenant: TenantId, actor: Actor, id: string, work: (unit: PromotionUnit) => Promise<T>): Promise<T> {
    return this.writing(tenant, () => this.primary.promotionUnit(tenant, actor, id, work));
  }

  updateUnit<T>(tenant: TenantId, actor: Actor, id: string, patch: MemoryPatch, work: (unit: UpdateUnit) => Promise<T>): Promise<T> {
    return this.writing(tenant, () => this.primary.updateUnit(tenant, actor, id, patch, work));
  }

  softDelete(tenant: TenantId, id: string, actor: Actor): Promise<boolean> {
    return this.writing(tenant, () => this.primary.softDelete(tenant, id, actor));
  }

  restore(tenant: TenantId, id: string, actor: Actor, options?: { version?: number }): Promise<MemoryRecord> {
    return this.writing(tenant, () => this.primary.restore(tenant, id, actor, options));
  }

  setEmbedding(tenant: TenantId, id: string, embedding: MemoryEmbedding): Promise<boolean> {
    return this.writing(tenant, () => this.primary.setEmbedding(tenant, id, embedding));
  }

  // Reads that write, or prepare a write: on the primary.

  readCountingAccess(tenant: TenantId, id: string): Promise<MemoryRecord | undefined> {
    return this.primary.readCountingAccess(tenant, id);
  }

  recordAccess(tenant: TenantId, ids: readonly string[]): Promise<void> {
    return this.primary.recordAccess(tenant, ids);
  }

  findById(tenant: TenantId, id: string, options?: { includeDeleted?: boolean }): Promise<MemoryRecord | undefined> {
    return this.primary.findById(tenant, id, options);
  }

  precedingMemories(tenant: TenantId, query: PrecedingMemoryQuery): Promise<readonly MemoryRecord[]> {
    return this.primary.precedingMemories(tenant, query);
  }

  // Reads the standby may serve.

  recallCandidates(tenant: TenantId, query: RecallCandidateQuery): Promise<readonly RecallCandidate[]> {
    // Candidates for a delete (forget with confirm) are read as they are now.
    if (query.current) return this.primary.recallCandidates(tenant, query);
    return this.reading(tenant, (store) => store.recallCandidates(tenant, query));
  }

  list(tenant: TenantId, query: ListMemoriesQuery): Promise<MemoryPage> {
    return this.reading(tenant, (store) => store.list(tenant, query));
  }

  mostImportant(tenant: TenantId, query: { limit: number; scope?: string; tags?: readonly string[] }): Promise<readonly MemoryRecord[]> {
    return this.reading(tenant, (store) => store.mostImportant(tenant, query));
  }

  versionsAsOf(tenant: TenantId, query: VersionsAsOfQuery): Promise<VersionsAsOf> {
    return this.reading(tenant, (store) => store.versionsAsOf(tenant, query));
  }

  auditTrail(tenant: TenantId, id: string, limit: number): Promise<readonly AuditEntry[]> {
    return this.reading(tenant, (store) => store.auditTrail(tenant, id, limit));
  }

  links(tenant: TenantId, id: string, limit: number): Promise<readonly MemoryLinkRecord[]> {
    return this.reading(tenant, (store) => store.links(tenant, id, limit));
  }

  findLiveByIds(tenant: TenantId, ids: readonly string[]): Promise<readonly MemoryRecord[]> {
    return this.reading(tenant, (store) => store.findLiveByIds(tenant, ids));
  }

  linksOf(tenant: TenantId, ids: readonly string[], perMemory: number): Promise<ReadonlyMap<string, readonly MemoryLinkRecord[]>> {
    return this.reading(tenant, (store) => store.linksOf(tenant, ids, perMemory));
  }

  nearest(tenant: TenantId, vector: readonly number[], limit: number): Promise<readonly NearestMemory[]> {
    return this.reading(tenant, (store) => store.nearest(tenant, vector, limit));
  }

  /** The recall statement's plan, on the primary (operators and the scale benchmark). */
  explainRecall(tenant: TenantId, query: RecallCandidateQuery): Promise<string> {
    return this.primary.explainRecall(tenant, query);
  }

  /** Waits for the access counts still being written (the store's close calls it). */
  settle(): Promise<void> {
    return this.primary.settle();
  }

  private async writing<T>(tenant: TenantId, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } finally {
      // Also after a failure: a connection lost during COMMIT may have committed all the same.
      this.options.writes.wrote(tenant);
    }
  }

  private async reading<T>(tenant: TenantId, read: (store: PgMemoryStore) => Promise<T>): Promise<T> {
    const { monitor, events } = this.options;
    const route = monitor.route(tenant);
    if (route.target === 'primary') {
      const result = await read(this.primary);
      events.onRead?.(route);
      return result;
    }
    let result: T;
    try {
      result = await read(this.options.replica);
    } catch (error) {
      // A refusal of the input (a limit out of range, a cursor this server never returned) does
      // not depend on the data: the caller gets it. For anything else the primary has the final
      // word, so a standby's own trouble never reaches the caller.
      if (isMemsvcError(error, 'INVALID_INPUT') || isMemsvcError(error, 'NOT_FOUND')) throw error;
      monitor.readFailed(error);
      const answered = await read(this.primary);
      events.onRead?.({ target: 'primary', reason: 'replica-error' });
      return answered;
    }
    monitor.readSucceeded();
    events.onRead?.(route);
    return result;
  }
}
