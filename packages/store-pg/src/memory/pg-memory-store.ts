import {
  type Actor,
  type AuditEntry,
  type Clock,
  checkFinite,
  checkLimit,
  checkNewMemory,
  type IdGenerator,
  type ListMemoriesQuery,
  type MemoryEmbedding,
  type MemoryLinkRecord,
  type MemoryPage,
  type MemoryPatch,
  type MemoryRecord,
  type MemoryStore,
  MemsvcError,
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
import { type Kysely, sql, type Transaction } from 'kysely';
import type { FirstStatistics } from '../connection/first-statistics.js';
import { retryingLockConflicts } from '../connection/lock-conflicts.js';
import { isUuid } from '../ids/uuid-v7.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import type { PgVectorSpace } from '../vector/pg-vector-space.js';
import type { VectorFeatures } from '../vector/vector-features.js';
import { AccessCounter } from './access-counter.js';
import { readAuditTrail, writeAudit } from './audit-trail.js';
import { insertMemory } from './insert-memory.js';
import { filterMemories, type MemoriesQuery } from './memory-filters.js';
import { readLinksOfMany, readMemoryLinks } from './memory-links.js';
import {
  hasEmbeddingColumn,
  isLiveAt,
  isUnexpiredAt,
  MEMORY_COLUMNS,
  type MemoryRow,
  memoriesByIdsQuery,
  memoryByIdQuery,
  RETURNED_MEMORY_COLUMNS,
  toMemoryRecord,
  updateMemoryRow,
  vectorLiteral,
} from './memory-row.js';
import { nearestMemories, precedingMemories } from './neighbour-queries.js';
import { toColumns } from './patch-columns.js';
import { holdForPromotion, PgPromotionUnit } from './pg-promotion-unit.js';
import { PgUpdateUnit } from './pg-update-unit.js';
import { PgNewMemoryUnit } from './pg-write-unit.js';
import { explainRecallCandidates, findRecallCandidates } from './recall-candidates.js';
import { restoreMemory } from './restore-memory.js';
import { readVersionsAsOf } from './versions-as-of.js';
import { hashContent } from './write-path.js';
import { inLockedTransaction, lockInTransaction, type SearchSettings, writeLockKey } from './write-transaction.js';

export interface PgMemoryStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
  /** Told of every memory written, so a new database gets its first statistics early. */
  readonly firstStatistics?: FirstStatistics | undefined;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly vectorSpace: PgVectorSpace;
  readonly vectorFeatures: VectorFeatures;
  /** `PGVECTOR_HNSW_EF_SEARCH`: candidate list size of each HNSW search. */
  readonly hnswEfSearch?: number | undefined;
}

/**
 * The MemoryStore port over PostgreSQL or PGlite. Every statement filters on the tenant it is
 * given; expired short-term rows are filtered with the injected clock's time, so tests control
 * expiry exactly.
 */
export class PgMemoryStore implements MemoryStore {
  readonly #accessCounter: AccessCounter;

  constructor(private readonly options: PgMemoryStoreOptions) {
    this.#accessCounter = new AccessCounter(() => this.db, options.clock);
  }

  private get db() {
    return this.options.db;
  }

  async insertAsGiven(tenant: TenantId, memory: NewMemory, actor: Actor): Promise<MemoryRecord> {
    checkNewMemory(memory);
    // The id is minted when the call arrives, not when a pooled connection frees up, so ids
    // (time-ordered) follow the order of the calls.
    const id = this.options.ids.next();
    if (memory.embedding) await this.checkVector(memory.embedding);
    const now = this.options.clock.now();
    const inserted = await insertMemory(this.db, {
      id,
      tenant,
      memory,
      contentHash: hashContent(memory.content),
      actor,
      now,
      contradicted: false,
    });
    this.options.firstStatistics?.noteWritten(1);
    return inserted;
  }

  async writeUnit<T>(tenant: TenantId, actor: Actor, memory: NewMemory, work: (unit: NewMemoryUnit) => Promise<T>): Promise<T> {
    checkNewMemory(memory);
    // Minted when the call arrives, as for insert.
    const id = this.options.ids.next();
    if (memory.embedding) await this.checkVector(memory.embedding);
    const now = this.options.clock.now();
    const contentHash = hashContent(memory.content);
    const context = { tenant, actor, ids: this.options.ids, now };
    // BEGIN with the lock and the search settings is one round trip; in the common case core's
    // use case then asks for the one-statement insert (the unit's fast path), then COMMIT.
    let unit: PgNewMemoryUnit | undefined;
    const result = await inLockedTransaction(this.db, writeLockKey(tenant, contentHash), this.searchSettings, (trx) => {
      unit = new PgNewMemoryUnit(trx, context, { id, memory, contentHash });
      return work(unit);
    });
    if (unit?.stored) this.options.firstStatistics?.noteWritten(1);
    return result;
  }

  async promotionUnit<T>(tenant: TenantId, actor: Actor, id: string, work: (unit: PromotionUnit) => Promise<T>): Promise<T> {
    const context = { tenant, actor, ids: this.options.ids, now: this.options.clock.now() };
    // It holds its own row before it takes the content lock and locks the neighbours it
    // contradicts, an order a write locking the same rows may cross: a deadlock reruns it.
    return retryingLockConflicts(() =>
      this.db.transaction().execute(async (trx) => {
        const held = await holdForPromotion(trx, context, id);
        // Promotion writes under the same content lock as a new write of this content.
        await lockInTransaction(trx, writeLockKey(tenant, held.contentHash), this.searchSettings);
        return work(new PgPromotionUnit(trx, context, held));
      }),
    );
  }

  async findById(tenant: TenantId, id: string, options: { includeDeleted?: boolean } = {}): Promise<MemoryRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const now = this.options.clock.now();
    const row = await memoryByIdQuery(this.db, tenant, id, options.includeDeleted ? isUnexpiredAt(now) : isLiveAt(now)).executeTakeFirst();
    return row ? toMemoryRecord(row as MemoryRow) : undefined;
  }

  async findLiveByIds(tenant: TenantId, ids: readonly string[]): Promise<readonly MemoryRecord[]> {
    const wanted = [...new Set(ids.filter(isUuid))];
    if (wanted.length === 0) return [];
    const rows = await memoriesByIdsQuery(this.db, tenant, wanted, isLiveAt(this.options.clock.now())).execute();
    return rows.map((row) => toMemoryRecord(row as MemoryRow));
  }

  async readCountingAccess(tenant: TenantId, id: string): Promise<MemoryRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const now = this.options.clock.now();
    // The read and its access count in one statement. A count is a ranking hint, not something
    // a client wrote, so this statement's commit does not wait for the disk: synchronous_commit
    // is switched off for its own transaction only. A crash may lose the last moments' counts.
    const result = await sql<MemoryRow>`
      UPDATE memories SET access_count = access_count + 1, last_accessed_at = ${now}
      FROM (SELECT set_config('synchronous_commit', 'off', true)) AS commit_without_flush
      WHERE user_id = ${tenant} AND id = ${id} AND deleted_at IS NULL AND (tier = 'ltm' OR expires_at > ${now})
      RETURNING ${RETURNED_MEMORY_COLUMNS}`.execute(this.db);
    const row = result.rows[0];
    return row ? toMemoryRecord(row) : undefined;
  }

  async mostImportant(
    tenant: TenantId,
    query: { limit: number; scope?: string; tags?: readonly string[] },
  ): Promise<readonly MemoryRecord[]> {
    checkLimit(query.limit);
    const now = this.options.clock.now();
    const rows = await filterMemories(
      this.db.selectFrom('memories') as MemoriesQuery,
      tenant,
      { scope: query.scope, tags: query.tags },
      now,
    )
      .select(MEMORY_COLUMNS)
      .select(hasEmbeddingColumn)
      .orderBy('importance_score', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .execute();
    return rows.map((row) => toMemoryRecord(row as MemoryRow));
  }

  async list(tenant: TenantId, query: ListMemoriesQuery): Promise<MemoryPage> {
    checkLimit(query.limit);
    if (query.cursor !== undefined && !isUuid(query.cursor)) {
      throw new MemsvcError('INVALID_INPUT', 'cursor is not one this server returned (expected the nextCursor of a previous page)', {
        field: 'cursor',
      });
    }
    const now = this.options.clock.now();
    const rows = await filterMemories(this.db.selectFrom('memories') as MemoriesQuery, tenant, query, now)
      .select(MEMORY_COLUMNS)
      .select(hasEmbeddingColumn)
      .$if(query.cursor !== undefined, (select) => select.where('id', '<', query.cursor ?? ''))
      // Ids are time-ordered (UUIDv7), so "newest first" is one index range scan, and a cursor
      // stays valid however many rows are inserted meanwhile.
      .orderBy('id', 'desc')
      .limit(query.limit + 1)
      .execute();
    const items = rows.slice(0, query.limit).map((row) => toMemoryRecord(row as MemoryRow));
    return { items, nextCursor: rows.length > query.limit ? items.at(-1)?.id : undefined };
  }

  async updateUnit<T>(tenant: TenantId, actor: Actor, id: string, patch: MemoryPatch, work: (unit: UpdateUnit) => Promise<T>): Promise<T> {
    if (patch.embedding) await this.checkVector(patch.embedding);
    const now = this.options.clock.now();
    const context = { tenant, actor, ids: this.options.ids, now };
    return this.db.transaction().execute(async (trx) => {
      const before = await this.lockLiveRow(trx, tenant, id, now);
      return work(new PgUpdateUnit(trx, context, before, toColumns(patch, now)));
    });
  }

  async softDelete(tenant: TenantId, id: string, actor: Actor): Promise<boolean> {
    if (!isUuid(id)) return false;
    const now = this.options.clock.now();
    return this.db.transaction().execute(async (trx) => {
      const before = await this.lockLiveRow(trx, tenant, id, now).catch((error: unknown) => {
        // Only "not found" means false; a database that fails must reach the caller as a failure.
        if (error instanceof MemsvcError && error.code === 'NOT_FOUND') return undefined;
        throw error;
      });
      if (!before) return false;
      const after = await updateMemoryRow(trx, tenant, id, { deleted_at: now }, true, now);
      await writeAudit(trx, { tenant, memoryId: id, actor, action: 'delete', version: after.version, before, after, at: now });
      return true;
    });
  }

  async restore(tenant: TenantId, id: string, actor: Actor, options: { version?: number } = {}): Promise<MemoryRecord> {
    const now = this.options.clock.now();
    return this.db
      .transaction()
      .execute((trx) =>
        restoreMemory(trx, { tenant, id, actor, now, version: options.version }, (change, bump) =>
          updateMemoryRow(trx, tenant, id, change, bump, now),
        ),
      );
  }

  async versionsAsOf(tenant: TenantId, query: VersionsAsOfQuery): Promise<VersionsAsOf> {
    return readVersionsAsOf(this.db, tenant, query);
  }

  async auditTrail(tenant: TenantId, id: string, limit: number): Promise<readonly AuditEntry[]> {
    checkLimit(limit);
    return isUuid(id) ? readAuditTrail(this.db, tenant, id, limit) : [];
  }

  async links(tenant: TenantId, id: string, limit: number): Promise<readonly MemoryLinkRecord[]> {
    checkLimit(limit);
    return readMemoryLinks(this.db, tenant, id, limit);
  }

  async linksOf(tenant: TenantId, ids: readonly string[], perMemory: number): Promise<ReadonlyMap<string, readonly MemoryLinkRecord[]>> {
    checkLimit(perMemory);
    return readLinksOfMany(this.db, tenant, ids, perMemory);
  }

  /** Waits for the work still pending after an answer (access counts, a first ANALYZE); the store's close calls it. */
  async settle(): Promise<void> {
    await this.#accessCounter.settle().catch(() => undefined);
    await this.options.firstStatistics?.settle();
  }

  async recordAccess(tenant: TenantId, ids: readonly string[]): Promise<void> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return;
    // One statement for every memory read, whatever the count (never N queries), shared by the
    // recalls of the same moment (AccessCounter).
    await this.#accessCounter.record(tenant, valid);
  }

  // A vector is derived data, not content: setting it neither bumps the version (which would
  // make clients' expectedVersion go stale behind their backs) nor writes an audit row.
  async setEmbedding(tenant: TenantId, id: string, embedding: MemoryEmbedding): Promise<boolean> {
    if (!isUuid(id)) return false;
    await this.checkVector(embedding);
    const result = await this.db
      .updateTable('memories')
      .set({ embedding: vectorLiteral(embedding.vector), embedding_model: embedding.model, embedded_at: this.options.clock.now() })
      .where('user_id', '=', tenant)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async recallCandidates(tenant: TenantId, query: RecallCandidateQuery): Promise<readonly RecallCandidate[]> {
    if (query.vector) {
      checkFinite(query.vector);
      // The size as last seen saves a round trip; only a mismatch is worth asking again about
      // (another process may have fixed the size since).
      let space = this.options.vectorSpace.cached;
      if (space?.dimensions !== query.vector.length) space = await this.options.vectorSpace.describe();
      // No vector stored yet, or a query vector of another size: full text alone can still answer.
      if (!space || space.dimensions !== query.vector.length) return this.recallCandidates(tenant, { ...query, vector: null });
    }
    // One statement, no transaction: every connection carries the search settings (openStore).
    return findRecallCandidates(this.db, tenant, query);
  }

  /** The plan of a recall's candidate statement, executed (EXPLAIN ANALYZE): for operators and the scale benchmark. */
  async explainRecall(tenant: TenantId, query: RecallCandidateQuery): Promise<string> {
    return explainRecallCandidates(this.db, tenant, query);
  }

  async precedingMemories(tenant: TenantId, query: PrecedingMemoryQuery): Promise<readonly MemoryRecord[]> {
    return precedingMemories(this.db, tenant, query, this.options.clock.now());
  }

  async nearest(tenant: TenantId, vector: readonly number[], limit: number): Promise<readonly NearestMemory[]> {
    checkLimit(limit);
    return nearestMemories(this.db, this.options.vectorSpace, tenant, vector, limit, this.options.clock.now());
  }

  private async lockLiveRow(trx: Transaction<MemsvcDatabase>, tenant: TenantId, id: string, now: Date): Promise<MemoryRecord> {
    const row = isUuid(id) ? await memoryByIdQuery(trx, tenant, id, isLiveAt(now)).forUpdate().executeTakeFirst() : undefined;
    if (!row) throw new MemsvcError('NOT_FOUND', `memory ${id} was not found`, { memoryId: id });
    return toMemoryRecord(row as MemoryRow);
  }

  private get searchSettings(): SearchSettings {
    return { efSearch: this.options.hnswEfSearch, iterativeScan: this.options.vectorFeatures.iterativeScan };
  }

  private async checkVector(embedding: MemoryEmbedding): Promise<void> {
    checkFinite(embedding.vector);
    await this.options.vectorSpace.ensure(embedding.vector.length, embedding.model);
  }
}
