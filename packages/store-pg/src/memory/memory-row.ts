import type { JsonObject, MemoryRecord, TenantId } from '@memsvc/core';
import { type ExpressionBuilder, type Kysely, sql, type Transaction } from 'kysely';
import pgvector from 'pgvector';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/** The columns every memory read selects: everything but the vector and the tsvector. */
export const MEMORY_COLUMNS = [
  'id',
  'user_id',
  'tier',
  'scope',
  'content',
  'tags',
  'metadata',
  'importance',
  'importance_score',
  'access_count',
  'last_accessed_at',
  'expires_at',
  'pinned',
  'stale',
  'contradicted',
  'superseded_by',
  'replaced_by',
  'deleted_at',
  'version',
  'embedding_model',
  'created_at',
  'updated_at',
] as const;

/** MEMORY_COLUMNS and `has_embedding`, as the SQL of a hand-written RETURNING or SELECT list. */
export const RETURNED_MEMORY_COLUMNS = sql.raw(`${MEMORY_COLUMNS.join(', ')}, embedding IS NOT NULL AS has_embedding`);

/** `has_embedding` without reading the vector itself. */
export function hasEmbeddingColumn() {
  return sql<boolean>`embedding IS NOT NULL`.as('has_embedding');
}

export interface MemoryRow {
  id: string;
  user_id: string;
  tier: 'stm' | 'ltm';
  scope: string | null;
  content: string;
  tags: string[];
  metadata: Record<string, unknown>;
  importance: number | null;
  importance_score: number;
  access_count: number;
  last_accessed_at: Date | null;
  expires_at: Date | null;
  pinned: boolean;
  stale: boolean;
  contradicted: boolean;
  superseded_by: string | null;
  replaced_by: string | null;
  deleted_at: Date | null;
  version: number;
  embedding_model: string | null;
  created_at: Date;
  updated_at: Date;
  has_embedding: boolean;
}

/** A database row as the domain's MemoryRecord. */
export function toMemoryRecord(row: MemoryRow): MemoryRecord {
  return {
    id: row.id,
    // Rows are only ever read with a tenant filter, so their owner is a checked tenant id.
    userId: row.user_id as TenantId,
    tier: row.tier,
    scope: row.scope,
    content: row.content,
    tags: row.tags,
    metadata: row.metadata as JsonObject,
    importance: row.importance,
    importanceScore: row.importance_score,
    accessCount: row.access_count,
    lastAccessedAt: row.last_accessed_at,
    expiresAt: row.expires_at,
    pinned: row.pinned,
    stale: row.stale,
    contradicted: row.contradicted,
    supersededBy: row.superseded_by,
    replacedBy: row.replaced_by ?? null,
    deletedAt: row.deleted_at,
    version: row.version,
    embeddingModel: row.embedding_model,
    hasEmbedding: row.has_embedding,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Live for reads at `now`: not deleted, and not an expired short-term row (spec §3.2 rule 5). */
export function isLiveAt(now: Date) {
  return (eb: ExpressionBuilder<MemsvcDatabase, 'memories'>) =>
    eb.and([eb('deleted_at', 'is', null), eb.or([eb('tier', '=', 'ltm'), eb('expires_at', '>', now)])]);
}

/** Not expired at `now` (deleted rows included), for reads that ask for deleted rows too. */
export function isUnexpiredAt(now: Date) {
  return (eb: ExpressionBuilder<MemsvcDatabase, 'memories'>) => eb.or([eb('tier', '=', 'ltm'), eb('expires_at', '>', now)]);
}

/** A vector as a pgvector literal parameter. */
export function vectorLiteral(vector: readonly number[]) {
  return sql<string>`${pgvector.toSql([...vector])}::vector`;
}

type Visibility = (eb: ExpressionBuilder<MemsvcDatabase, 'memories'>) => ReturnType<ReturnType<typeof isLiveAt>>;

/** One memory of one tenant, as a query to run (add `.forUpdate()` to lock the row). */
/** The memories among `ids` (uuids) of one tenant that `visible` admits. */
export function memoriesByIdsQuery(
  db: Kysely<MemsvcDatabase> | Transaction<MemsvcDatabase>,
  tenant: TenantId,
  ids: readonly string[],
  visible: Visibility,
) {
  return db
    .selectFrom('memories')
    .select(MEMORY_COLUMNS)
    .select(hasEmbeddingColumn)
    .where('user_id', '=', tenant)
    .where('id', 'in', ids)
    .where(visible);
}

export function memoryByIdQuery(
  db: Kysely<MemsvcDatabase> | Transaction<MemsvcDatabase>,
  tenant: TenantId,
  id: string,
  visible: Visibility,
) {
  return memoriesByIdsQuery(db, tenant, [id], visible);
}

/**
 * Applies `change` to one memory of the tenant and returns it as it now is; a client-visible
 * change bumps the version and `updated_at`, server bookkeeping passes `bumpVersion: false`.
 */
export async function updateMemoryRow(
  trx: Kysely<MemsvcDatabase>,
  tenant: TenantId,
  id: string,
  change: Record<string, unknown>,
  bumpVersion: boolean,
  now: Date,
): Promise<MemoryRecord> {
  const row = await trx
    .updateTable('memories')
    .set((eb) => ({ ...change, ...(bumpVersion ? { version: eb('version', '+', 1), updated_at: now } : {}) }))
    .where('user_id', '=', tenant)
    .where('id', '=', id)
    .returning(MEMORY_COLUMNS)
    .returning(hasEmbeddingColumn)
    .executeTakeFirstOrThrow();
  return toMemoryRecord(row as MemoryRow);
}
