import {
  type Actor,
  type AuditEntry,
  type Clock,
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
  type PrecedingMemoryQuery,
  type RecallCandidate,
  type RecallCandidateQuery,
  type TenantId,
  type UpdateOptions,
  type VersionsAsOf,
  type VersionsAsOfQuery,
  type WriteOptions,
  type WriteOutcome,
  type WriteRules,
  withoutRetired,
} from '@memsvc/core';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { FirstStatistics } from '../connection/first-statistics.js';
import { retryingLockConflicts } from '../connection/lock-conflicts.js';
import { isUuid } from '../ids/uuid-v7.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import type { PgVectorSpace } from '../vector/pg-vector-space.js';
import type { VectorFeatures } from '../vector/vector-features.js';
import { inVectorShardOf } from '../vector/vector-shards.js';
import { AccessCounter } from './access-counter.js';
import { readAuditTrail, writeAudit } from './audit-trail.js';
import { insertMemory, insertUnlessRelevantCandidates } from './insert-memory.js';
import { filterMemories, type MemoriesQuery } from './memory-filters.js';
import { readMemoryLinks } from './memory-links.js';
import {
  hasEmbeddingColumn,
  isLiveAt,
  isUnexpiredAt,
  MEMORY_COLUMNS,
  type MemoryRow,
  memoryByIdQuery,
  RETURNED_MEMORY_COLUMNS,
  toMemoryRecord,
  updateMemoryRow,
  vectorLiteral,
} from './memory-row.js';
import { explainRecallCandidates, findRecallCandidates } from './recall-candidates.js';
import { restoreMemory } from './restore-memory.js';
import { retireNamed } from './retire-named.js';
import { readVersionsAsOf } from './versions-as-of.js';
import {
  applyContradictionEffects,
  applyReplacements,
  candidatesSql,
  findCandidates,
  hashContent,
  sameScope,
  toWriteCandidates,
} from './write-path.js';
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

/** Largest page `list` returns. */
export const MAX_PAGE_SIZE = 1000;

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

  async insert(tenant: TenantId, memory: NewMemory, actor: Actor): Promise<MemoryRecord> {
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

  async write(tenant: TenantId, memory: NewMemory, actor: Actor, rules: WriteRules, options: WriteOptions = {}): Promise<WriteOutcome> {
    const { supersede } = options;
    checkNewMemory(memory);
    const id = this.options.ids.next();
    if (memory.embedding) await this.checkVector(memory.embedding);
    const now = this.options.clock.now();
    const contentHash = hashContent(memory.content);
    const key = writeLockKey(tenant, contentHash);
    // Three round trips in the common case: BEGIN with the lock, one statement that finds the
    // candidates and inserts when none of them matters, COMMIT. Only a write that meets a
    // duplicate or a contradiction gets core's plan applied in further statements.
    const outcome = await inLockedTransaction(this.db, key, this.searchSettings, async (trx) => {
      const candidates = candidatesSql(trx, {
        tenant,
        scope: memory.scope ?? null,
        contentHash,
        vector: memory.embedding?.vector ?? null,
        tiers: rules.comparedTiers({ tier: memory.tier }),
        now,
        ...(rules.findsFactChanges ? { content: memory.content } : {}),
      });
      const row = { id, tenant, memory, contentHash, actor, now };
      const rows = await insertUnlessRelevantCandidates(trx, candidates, rules.plainInsertBelow, { ...row, contradicted: false });
      // A memory the caller retires is neither the write's duplicate nor its contradiction.
      const plan = rules.plan(withoutRetired(toWriteCandidates(rows), supersede));
      const context = { tenant, actor, ids: this.options.ids, now };
      // The caller's `supersedes`, retired behind what the write resolved to; a refusal throws and rolls back the write.
      const retire = async (successorId: string) =>
        supersede ? { superseded: await retireNamed(trx, context, successorId, supersede) } : {};
      const inserted = rows.find((candidate) => candidate.kind === 'inserted');
      if (inserted) {
        if (plan.kind !== 'insert' || plan.effects.length > 0 || plan.flagNew) {
          throw new Error('write rules and plainInsertBelow disagree: a row was inserted that the rules would not insert as it is');
        }
        // Replacements never change the new row, so the one-statement insert stands and they follow it.
        const stored = toMemoryRecord(inserted);
        const affected = await applyReplacements(trx, context, stored, plan.replacements);
        return { memory: stored, decision: plan.decision, affected, ...(await retire(inserted.id)) };
      }
      if (plan.kind === 'collapse') {
        return { memory: plan.decision.into, decision: plan.decision, affected: [], ...(await retire(plan.decision.into.id)) };
      }
      const stored = await insertMemory(trx, { ...row, contradicted: plan.flagNew });
      const affected = [
        ...(await applyContradictionEffects(trx, context, stored, plan.effects)),
        ...(await applyReplacements(trx, context, stored, plan.replacements)),
      ];
      return { memory: stored, decision: plan.decision, affected, ...(await retire(stored.id)) };
    });
    if (outcome.decision.kind !== 'collapse') this.options.firstStatistics?.noteWritten(1);
    return outcome;
  }

  async promote(tenant: TenantId, id: string, actor: Actor, rules: WriteRules): Promise<WriteOutcome> {
    const now = this.options.clock.now();
    // It holds its own row before it locks the neighbours it contradicts, an order a write
    // locking the same rows may cross: a deadlock reruns it.
    return retryingLockConflicts(() => this.db.transaction().execute((trx) => this.promoteIn(trx, { tenant, id, actor, rules, now })));
  }

  /** One attempt at a promotion, in its transaction: core's promotion plan, applied. */
  private async promoteIn(
    trx: Transaction<MemsvcDatabase>,
    { tenant, id, actor, rules, now }: { tenant: TenantId; id: string; actor: Actor; rules: WriteRules; now: Date },
  ): Promise<WriteOutcome> {
    const row = isUuid(id)
      ? await memoryByIdQuery(trx, tenant, id, isLiveAt(now))
          .select(['content_hash', sql<string | null>`embedding::text`.as('embedding_text')])
          .forUpdate()
          .executeTakeFirst()
      : undefined;
    if (!row) throw new MemsvcError('NOT_FOUND', `memory ${id} was not found`, { memoryId: id });
    // Promotion writes under the same content lock as a new write of this content.
    await lockInTransaction(trx, writeLockKey(tenant, row.content_hash), this.searchSettings);
    const before = toMemoryRecord(row as MemoryRow);
    const candidates = await findCandidates(trx, {
      tenant,
      scope: before.scope,
      contentHash: row.content_hash,
      vector: row.embedding_text ? (JSON.parse(row.embedding_text) as number[]) : null,
      tiers: rules.comparedTiers({ tier: before.tier, promotion: true }),
      now,
      excludeId: id,
    });
    const plan = rules.planPromotion(before, candidates);
    if (plan.kind === 'unchanged') return { memory: before, decision: plan.decision, affected: [] };
    if (plan.kind === 'collapse') {
      const deleted = await this.markDeleted(trx, tenant, before, now);
      await writeAudit(trx, {
        tenant,
        memoryId: id,
        actor,
        action: plan.auditAction,
        version: deleted.version,
        before,
        after: { ...deleted, collapsedInto: plan.decision.into.id },
        at: now,
      });
      return { memory: plan.decision.into, decision: plan.decision, affected: [] };
    }
    const promoted = await updateMemoryRow(trx, tenant, id, { tier: 'ltm', expires_at: null }, true, now);
    await writeAudit(trx, {
      tenant,
      memoryId: id,
      actor,
      action: plan.auditAction,
      version: promoted.version,
      before,
      after: promoted,
      at: now,
    });
    const affected = await applyContradictionEffects(trx, { tenant, actor, ids: this.options.ids, now }, promoted, plan.effects);
    const memory = plan.flagPromoted ? await updateMemoryRow(trx, tenant, id, { contradicted: true }, false, now) : promoted;
    return { memory, decision: plan.decision, affected };
  }

  async findById(tenant: TenantId, id: string, options: { includeDeleted?: boolean } = {}): Promise<MemoryRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const now = this.options.clock.now();
    const row = await memoryByIdQuery(this.db, tenant, id, options.includeDeleted ? isUnexpiredAt(now) : isLiveAt(now)).executeTakeFirst();
    return row ? toMemoryRecord(row as MemoryRow) : undefined;
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

  async update(tenant: TenantId, id: string, patch: MemoryPatch, options: UpdateOptions): Promise<MemoryRecord> {
    if (patch.embedding) await this.checkVector(patch.embedding);
    const now = this.options.clock.now();
    return this.db.transaction().execute(async (trx) => {
      const before = await this.lockLiveRow(trx, tenant, id, now);
      if (options.expectedVersion !== undefined && before.version !== options.expectedVersion) {
        throw new MemsvcError(
          'CONFLICT',
          `memory ${id} was modified: it is at version ${before.version}, not ${options.expectedVersion}; read it again and retry`,
          { memoryId: id, currentVersion: before.version, expectedVersion: options.expectedVersion },
        );
      }
      const after = await updateMemoryRow(trx, tenant, id, toColumns(patch, now), options.bumpVersion ?? true, now);
      await writeAudit(trx, {
        tenant,
        memoryId: id,
        actor: options.actor,
        action: options.action,
        version: after.version,
        before,
        after,
        at: now,
      });
      // A refused `supersedes` throws here and the update rolls back with it.
      if (options.supersede) await retireNamed(trx, { tenant, actor: options.actor, ids: this.options.ids, now }, id, options.supersede);
      return after;
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
      const after = await this.markDeleted(trx, tenant, before, now);
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
    const now = this.options.clock.now();
    const recent = this.db
      .selectFrom('memories')
      .select('id')
      .where('user_id', '=', tenant)
      .where('deleted_at', 'is', null)
      .orderBy('id', 'desc')
      .limit(query.window);
    // The turns before `beforeTurn`, as metadata text ("12"), so one IN list serves both shapes.
    const turns =
      query.beforeTurn === undefined
        ? undefined
        : Array.from({ length: Math.min(query.count, query.beforeTurn) }, (_, i) => String((query.beforeTurn ?? 0) - 1 - i));
    if (turns?.length === 0) return [];
    const rows = await this.db
      .selectFrom('memories')
      .select(MEMORY_COLUMNS)
      .select(hasEmbeddingColumn)
      .where('id', 'in', recent)
      .where('user_id', '=', tenant)
      .where(isLiveAt(now))
      .where((eb) => {
        const { conversationId } = query;
        if (conversationId === undefined) return eb.and([sameScope(query.scope), eb('created_at', '>=', query.since)]);
        const turnIs = (path: RawBuilder<unknown>) => (turns === undefined ? [] : [eb(path, 'in', turns)]);
        return eb.or([
          eb.and([eb(sql`metadata->>'conversationId'`, '=', conversationId), ...turnIs(sql`metadata->>'turn'`)]),
          eb.and([eb(sql`metadata->'conversation'->>'id'`, '=', conversationId), ...turnIs(sql`metadata->'conversation'->>'turn'`)]),
        ]);
      })
      .orderBy('id', 'desc')
      .limit(query.count)
      .execute();
    return rows.map((row) => toMemoryRecord(row as MemoryRow));
  }

  async nearest(tenant: TenantId, vector: readonly number[], limit: number): Promise<readonly NearestMemory[]> {
    checkLimit(limit);
    const space = await this.options.vectorSpace.describe();
    if (!space) return [];
    checkFinite(vector);
    if (space.dimensions !== vector.length) {
      // Reuse the vector space's message, which tells the operator how to recover.
      await this.options.vectorSpace.ensure(vector.length, null);
    }
    const now = this.options.clock.now();
    const distance = sql<number>`embedding <=> ${vectorLiteral(vector)}`;
    const rows = await this.db
      .selectFrom('memories')
      .select(MEMORY_COLUMNS)
      .select(hasEmbeddingColumn)
      .select(sql<number>`1 - (${distance})`.as('similarity'))
      .where('user_id', '=', tenant)
      .where(isLiveAt(now))
      .where('embedding', 'is not', null)
      .where(inVectorShardOf(tenant))
      .orderBy(distance)
      .limit(limit)
      .execute();
    return rows
      .map((row) => ({ memory: toMemoryRecord(row as MemoryRow), similarity: Number(row.similarity) }))
      .sort((a, b) => b.similarity - a.similarity);
  }

  private async lockLiveRow(trx: Transaction<MemsvcDatabase>, tenant: TenantId, id: string, now: Date): Promise<MemoryRecord> {
    const row = isUuid(id) ? await memoryByIdQuery(trx, tenant, id, isLiveAt(now)).forUpdate().executeTakeFirst() : undefined;
    if (!row) throw new MemsvcError('NOT_FOUND', `memory ${id} was not found`, { memoryId: id });
    return toMemoryRecord(row as MemoryRow);
  }

  private markDeleted(trx: Transaction<MemsvcDatabase>, tenant: TenantId, before: MemoryRecord, now: Date): Promise<MemoryRecord> {
    return updateMemoryRow(trx, tenant, before.id, { deleted_at: now }, true, now);
  }

  private get searchSettings(): SearchSettings {
    return { efSearch: this.options.hnswEfSearch, iterativeScan: this.options.vectorFeatures.iterativeScan };
  }

  private async checkVector(embedding: MemoryEmbedding): Promise<void> {
    checkFinite(embedding.vector);
    await this.options.vectorSpace.ensure(embedding.vector.length, embedding.model);
  }
}

function toColumns(patch: MemoryPatch, now: Date): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  if (patch.content !== undefined) {
    columns.content = patch.content;
    columns.content_hash = hashContent(patch.content);
  }
  if (patch.tags !== undefined) columns.tags = [...patch.tags];
  if (patch.metadata !== undefined) columns.metadata = JSON.stringify(patch.metadata);
  if (patch.importance !== undefined) columns.importance = patch.importance;
  if (patch.importanceScore !== undefined) columns.importance_score = patch.importanceScore;
  if (patch.pinned !== undefined) columns.pinned = patch.pinned;
  if (patch.tier !== undefined) columns.tier = patch.tier;
  if (patch.expiresAt !== undefined) columns.expires_at = patch.expiresAt;
  if (patch.embedding === null) Object.assign(columns, { embedding: null, embedding_model: null, embedded_at: null });
  else if (patch.embedding) {
    Object.assign(columns, { embedding: vectorLiteral(patch.embedding.vector), embedding_model: patch.embedding.model, embedded_at: now });
  }
  return columns;
}

function checkNewMemory(memory: NewMemory): void {
  if (memory.tier === 'stm' && !memory.expiresAt) {
    throw new MemsvcError('INVALID_INPUT', 'a short-term memory needs an expiry (expiresAt)', { field: 'expiresAt' });
  }
  if (memory.tier === 'ltm' && memory.expiresAt) {
    throw new MemsvcError('INVALID_INPUT', 'a long-term memory cannot have an expiry', { field: 'expiresAt' });
  }
}

function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new MemsvcError('INVALID_INPUT', `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`, { field: 'limit' });
  }
}

function checkFinite(vector: readonly number[]): void {
  if (vector.length === 0 || !vector.every(Number.isFinite)) {
    throw new MemsvcError('INVALID_INPUT', 'an embedding must be a non-empty list of finite numbers', { field: 'embedding' });
  }
}
