import { type Kysely, sql } from 'kysely';

/**
 * Full-text postings go straight into the GIN index. With GIN's default `fastupdate`, rows
 * written after the index was built wait in an unsorted pending list (up to 4 MB) until a
 * vacuum merges it, and every search scans that whole list: measured at 50,000 of 200,000
 * memories, the index part of a recall's full-text branch took 7.7 ms with a full list and
 * 1.8 ms without. So recall latency drifted with recent write traffic. Without the list an
 * insert merges its dozen lexemes itself, microseconds beside the same write's HNSW insert.
 * Rows already waiting are merged now.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER INDEX memories_user_search_idx SET (fastupdate = off)`.execute(db);
  await sql`SELECT gin_clean_pending_list('memories_user_search_idx'::regclass)`.execute(db);
}
