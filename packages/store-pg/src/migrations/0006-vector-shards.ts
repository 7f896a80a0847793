import { type Kysely, sql } from 'kysely';
import { createHnswShardIndexes, VECTOR_SHARD_EXPRESSION } from '../vector/vector-shards.js';

/**
 * The HNSW index becomes one partial index per tenant shard (see vector-shards.ts). The shard
 * is a generated column, so no writer can get it wrong. A database whose vector space is already
 * fixed has its single index replaced by the shard indexes here, built with the same settings;
 * that is a full rebuild, paid once, inside the migration's transaction, so writes wait for it
 * (80–90 s for 200,000 384-dimensional vectors on two cores, less than the single index took).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS memories_embedding_hnsw_idx`.execute(db);
  await sql`ALTER TABLE memories ADD COLUMN vector_shard smallint GENERATED ALWAYS AS (${VECTOR_SHARD_EXPRESSION}) STORED`.execute(db);
  const space = await sql<{ hnsw_m: number | null; hnsw_ef_construction: number | null }>`
    SELECT hnsw_m, hnsw_ef_construction FROM vector_space`.execute(db);
  const settings = space.rows[0];
  if (!settings) return; // the first vector will fix the size and build the indexes
  await sql`SELECT set_config('maintenance_work_mem', '256MB', true)`.execute(db);
  await createHnswShardIndexes(db, { m: settings.hnsw_m ?? undefined, efConstruction: settings.hnsw_ef_construction ?? undefined });
}
