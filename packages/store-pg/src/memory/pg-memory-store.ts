import { createHash } from 'node:crypto';
import {
  type Actor,
  type Clock,
  contentFingerprintText,
  type IdGenerator,
  type ListMemoriesQuery,
  type MemoryEmbedding,
  type MemoryPage,
  type MemoryRecord,
  type MemoryStore,
  MemsvcError,
  type NearestMemory,
  type NewMemory,
  type TenantId,
} from '@memsvc/core';
import { type Kysely, sql, type Transaction } from 'kysely';
import { isUuid } from '../ids/uuid-v7.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import type { PgVectorSpace } from '../vector/pg-vector-space.js';
import type { VectorFeatures } from '../vector/vector-features.js';
import {
  hasEmbeddingColumn,
  isLiveAt,
  isUnexpiredAt,
  MEMORY_COLUMNS,
  type MemoryRow,
  toAuditSnapshot,
  toMemoryRecord,
  vectorLiteral,
} from './memory-row.js';

export interface PgMemoryStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
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
  constructor(private readonly options: PgMemoryStoreOptions) {}

  private get db() {
    return this.options.db;
  }

  async insert(tenant: TenantId, memory: NewMemory, actor: Actor): Promise<MemoryRecord> {
    checkTierExpiry(memory);
    // The id is minted when the call arrives, not when a pooled connection frees up, so ids
    // (time-ordered) follow the order of the calls.
    const id = this.options.ids.next();
    if (memory.embedding) await this.checkVector(memory.embedding);
    const now = this.options.clock.now();
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('memories')
        .values({
          id,
          user_id: tenant,
          tier: memory.tier,
          content: memory.content,
          content_hash: hashContent(memory.content),
          tags: [...(memory.tags ?? [])],
          metadata: JSON.stringify(memory.metadata ?? {}),
          importance: memory.importance ?? null,
          importance_score: memory.importanceScore ?? 0.5,
          pinned: memory.pinned ?? false,
          expires_at: memory.expiresAt ?? null,
          embedding: memory.embedding ? vectorLiteral(memory.embedding.vector) : null,
          embedding_model: memory.embedding?.model ?? null,
          embedded_at: memory.embedding ? now : null,
          created_at: now,
          updated_at: now,
        })
        .returning(MEMORY_COLUMNS)
        .returning(hasEmbeddingColumn)
        .executeTakeFirstOrThrow();
      const record = toMemoryRecord(row as MemoryRow);
      await audit(trx, { record, actor, action: 'create', before: null, after: record });
      return record;
    });
  }

  async findById(tenant: TenantId, id: string, options: { includeDeleted?: boolean } = {}): Promise<MemoryRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const now = this.options.clock.now();
    const row = await this.db
      .selectFrom('memories')
      .select(MEMORY_COLUMNS)
      .select(hasEmbeddingColumn)
      .where('user_id', '=', tenant)
      .where('id', '=', id)
      .where(options.includeDeleted ? isUnexpiredAt(now) : isLiveAt(now))
      .executeTakeFirst();
    return row ? toMemoryRecord(row as MemoryRow) : undefined;
  }

  async list(tenant: TenantId, query: ListMemoriesQuery): Promise<MemoryPage> {
    if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_PAGE_SIZE) {
      throw new MemsvcError('INVALID_INPUT', `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`, { field: 'limit' });
    }
    if (query.cursor !== undefined && !isUuid(query.cursor)) {
      throw new MemsvcError('INVALID_INPUT', 'cursor is not one this server returned (expected the nextCursor of a previous page)', {
        field: 'cursor',
      });
    }
    const now = this.options.clock.now();
    let select = this.db
      .selectFrom('memories')
      .select(MEMORY_COLUMNS)
      .select(hasEmbeddingColumn)
      .where('user_id', '=', tenant)
      .where(query.includeDeleted ? isUnexpiredAt(now) : isLiveAt(now));
    if (query.tier) select = select.where('tier', '=', query.tier);
    if (query.cursor) select = select.where('id', '<', query.cursor);
    // Ids are time-ordered (UUIDv7), so "newest first" is one index range scan, and a cursor
    // stays valid however many rows are inserted meanwhile.
    const rows = await select
      .orderBy('id', 'desc')
      .limit(query.limit + 1)
      .execute();
    const items = rows.slice(0, query.limit).map((row) => toMemoryRecord(row as MemoryRow));
    return { items, nextCursor: rows.length > query.limit ? items.at(-1)?.id : undefined };
  }

  async softDelete(tenant: TenantId, id: string, actor: Actor): Promise<boolean> {
    if (!isUuid(id)) return false;
    const now = this.options.clock.now();
    return this.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('memories')
        .select(MEMORY_COLUMNS)
        .select(hasEmbeddingColumn)
        .where('user_id', '=', tenant)
        .where('id', '=', id)
        .where(isLiveAt(now))
        .forUpdate()
        .executeTakeFirst();
      if (!before) return false;
      const after = await trx
        .updateTable('memories')
        .set((eb) => ({ deleted_at: now, updated_at: now, version: eb('version', '+', 1) }))
        .where('user_id', '=', tenant)
        .where('id', '=', id)
        .returning(MEMORY_COLUMNS)
        .returning(hasEmbeddingColumn)
        .executeTakeFirstOrThrow();
      const record = toMemoryRecord(after as MemoryRow);
      await audit(trx, { record, actor, action: 'delete', before: toMemoryRecord(before as MemoryRow), after: record });
      return true;
    });
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

  async nearest(tenant: TenantId, vector: readonly number[], limit: number): Promise<readonly NearestMemory[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
      throw new MemsvcError('INVALID_INPUT', `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`, { field: 'limit' });
    }
    const space = await this.options.vectorSpace.describe();
    if (!space) return [];
    checkFinite(vector);
    if (space.dimensions !== vector.length) {
      // Reuse the vector space's message, which tells the operator how to recover.
      await this.options.vectorSpace.ensure(vector.length, null);
    }
    const now = this.options.clock.now();
    const rows = await this.db.transaction().execute(async (trx) => {
      await this.applySearchSettings(trx);
      const distance = sql<number>`embedding <=> ${vectorLiteral(vector)}`;
      return trx
        .selectFrom('memories')
        .select(MEMORY_COLUMNS)
        .select(hasEmbeddingColumn)
        .select(sql<number>`1 - (${distance})`.as('similarity'))
        .where('user_id', '=', tenant)
        .where(isLiveAt(now))
        .where('embedding', 'is not', null)
        .orderBy(distance)
        .limit(limit)
        .execute();
    });
    return rows
      .map((row) => ({ memory: toMemoryRecord(row as MemoryRow), similarity: Number(row.similarity) }))
      .sort((a, b) => b.similarity - a.similarity);
  }

  private async applySearchSettings(trx: Transaction<MemsvcDatabase>): Promise<void> {
    const efSearch = this.options.hnswEfSearch;
    if (efSearch !== undefined) await sql`SET LOCAL hnsw.ef_search = ${sql.lit(efSearch)}`.execute(trx);
    // With a tenant filter, a plain HNSW scan returns ef_search candidates and then filters them,
    // which can leave fewer than `limit` rows. pgvector 0.8's iterative scan keeps going instead.
    if (this.options.vectorFeatures.iterativeScan) await sql`SET LOCAL hnsw.iterative_scan = relaxed_order`.execute(trx);
  }

  private async checkVector(embedding: MemoryEmbedding): Promise<void> {
    checkFinite(embedding.vector);
    await this.options.vectorSpace.ensure(embedding.vector.length, embedding.model);
  }
}

function checkTierExpiry(memory: NewMemory): void {
  if (memory.tier === 'stm' && !memory.expiresAt) {
    throw new MemsvcError('INVALID_INPUT', 'a short-term memory needs an expiry (expiresAt)', { field: 'expiresAt' });
  }
  if (memory.tier === 'ltm' && memory.expiresAt) {
    throw new MemsvcError('INVALID_INPUT', 'a long-term memory cannot have an expiry', { field: 'expiresAt' });
  }
}

function checkFinite(vector: readonly number[]): void {
  if (vector.length === 0 || !vector.every(Number.isFinite)) {
    throw new MemsvcError('INVALID_INPUT', 'an embedding must be a non-empty list of finite numbers', { field: 'embedding' });
  }
}

function hashContent(content: string): string {
  return createHash('sha256').update(contentFingerprintText(content)).digest('hex');
}

async function audit(
  trx: Transaction<MemsvcDatabase>,
  entry: { record: MemoryRecord; actor: Actor; action: string; before: MemoryRecord | null; after: MemoryRecord | null },
): Promise<void> {
  await trx
    .insertInto('memory_audit')
    .values({
      memory_id: entry.record.id,
      user_id: entry.record.userId,
      actor: entry.actor.id,
      action: entry.action,
      version: entry.record.version,
      before: entry.before ? toAuditSnapshot(entry.before) : null,
      after: entry.after ? toAuditSnapshot(entry.after) : null,
      created_at: entry.record.updatedAt,
    })
    .execute();
}
