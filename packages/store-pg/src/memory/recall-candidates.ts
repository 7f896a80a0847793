import type { RecallCandidate, RecallCandidateQuery, TenantId } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { inVectorShardOf } from '../vector/vector-shards.js';
import { lexicalListSql } from './lexical-list.js';
import { filterMemories, type MemoriesQuery } from './memory-filters.js';
import { type MemoryRow, RETURNED_MEMORY_COLUMNS, toMemoryRecord, vectorLiteral } from './memory-row.js';

type CandidateRow = MemoryRow & {
  vector_rank: number | null;
  lexical_rank: number | null;
  lexical_score: number | null;
  similarity: number | null;
};

/**
 * Both candidate lists of a recall in one statement: the nearest memories by cosine distance
 * (the tenant's HNSW shard) and the best BM25 matches (per-tenant statistics, English stemming,
 * any query word may match), each numbered by rank, joined back to their rows. Ranking them is
 * core's job (rankCandidates), so the formula exists once.
 */
export async function findRecallCandidates(
  db: Kysely<MemsvcDatabase>,
  tenant: TenantId,
  query: RecallCandidateQuery,
): Promise<RecallCandidate[]> {
  const result = await recallCandidatesSql(db, tenant, query).execute(db);
  return result.rows.map((row) => ({
    memory: toMemoryRecord(row),
    vectorRank: row.vector_rank === null ? undefined : Number(row.vector_rank),
    lexicalRank: row.lexical_rank === null ? undefined : Number(row.lexical_rank),
    lexicalScore: row.lexical_score === null ? undefined : Number(row.lexical_score),
    similarity: row.similarity === null ? undefined : Number(row.similarity),
  }));
}

/** EXPLAIN (ANALYZE, BUFFERS) of the recall statement: which indexes it used, and what it cost. */
export async function explainRecallCandidates(db: Kysely<MemsvcDatabase>, tenant: TenantId, query: RecallCandidateQuery): Promise<string> {
  const result = await sql<{ 'QUERY PLAN': string }>`EXPLAIN (ANALYZE, BUFFERS) ${recallCandidatesSql(db, tenant, query)}`.execute(db);
  return result.rows.map((row) => row['QUERY PLAN']).join('\n');
}

function recallCandidatesSql(db: Kysely<MemsvcDatabase>, tenant: TenantId, query: RecallCandidateQuery) {
  const base = () => filterMemories(db.selectFrom('memories') as MemoriesQuery, tenant, query.filters, query.now);
  // Ordered by the selected distance, so the query vector is sent (and parsed) once; the
  // planner still walks the HNSW index for an ORDER BY of an output column.
  const vectorList = query.vector
    ? base()
        .select(['id', sql<number>`embedding <=> ${vectorLiteral(query.vector)}`.as('distance')])
        .where('embedding', 'is not', null)
        .where(inVectorShardOf(tenant))
        .orderBy('distance')
        .limit(query.perList)
    : undefined;

  const vectorCte = vectorList
    ? sql`SELECT id, 1 - distance AS similarity, row_number() OVER (ORDER BY distance, id DESC) AS vector_rank
          FROM (${vectorList}) AS nearest WHERE 1 - distance >= ${query.minSimilarity}::double precision`
    : sql`SELECT NULL::uuid AS id, NULL::double precision AS similarity, NULL::bigint AS vector_rank WHERE false`;
  return sql<CandidateRow>`
    WITH vector_list AS (${vectorCte}),
    lexical_list AS (${lexicalListSql(db, tenant, query)}),
    candidate_ids AS (SELECT id FROM vector_list UNION SELECT id FROM lexical_list)
    SELECT ${RETURNED_MEMORY_COLUMNS}, vector_list.vector_rank, vector_list.similarity, lexical_list.lexical_rank, lexical_list.lexical_score
    FROM candidate_ids
    JOIN memories USING (id)
    LEFT JOIN vector_list USING (id)
    LEFT JOIN lexical_list USING (id)
    WHERE memories.user_id = ${tenant}`;
}
