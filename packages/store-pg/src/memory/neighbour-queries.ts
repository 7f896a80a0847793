import type { MemoryRecord, NearestMemory, PrecedingMemoryQuery, TenantId } from '@memsvc/core';
import { checkFinite } from '@memsvc/core';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import type { PgVectorSpace } from '../vector/pg-vector-space.js';
import { inVectorShardOf } from '../vector/vector-shards.js';
import { hasEmbeddingColumn, isLiveAt, MEMORY_COLUMNS, type MemoryRow, toMemoryRecord, vectorLiteral } from './memory-row.js';
import { sameScope } from './write-path.js';

/**
 * The memories just before a new one (its search context, MemoryStore.precedingMemories): a
 * conversation's previous turns, or the same scope's latest memories since `query.since`, found
 * among the tenant's `query.window` most recent rows.
 */
export async function precedingMemories(
  db: Kysely<MemsvcDatabase>,
  tenant: TenantId,
  query: PrecedingMemoryQuery,
  now: Date,
): Promise<readonly MemoryRecord[]> {
  const recent = db
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
  const rows = await db
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

/** A tenant's live memories nearest a vector by cosine similarity, most similar first (MemoryStore.nearest). */
export async function nearestMemories(
  db: Kysely<MemsvcDatabase>,
  vectorSpace: PgVectorSpace,
  tenant: TenantId,
  vector: readonly number[],
  limit: number,
  now: Date,
): Promise<readonly NearestMemory[]> {
  const space = await vectorSpace.describe();
  if (!space) return [];
  checkFinite(vector);
  if (space.dimensions !== vector.length) {
    // Reuse the vector space's message, which tells the operator how to recover.
    await vectorSpace.ensure(vector.length, null);
  }
  const distance = sql<number>`embedding <=> ${vectorLiteral(vector)}`;
  const rows = await db
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
