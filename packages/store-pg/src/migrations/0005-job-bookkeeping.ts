import { type Kysely, sql } from 'kysely';

/**
 * Bookkeeping for the scheduled jobs and the reindex queue: how many times a reindex job was
 * started (a retry after a dead runner is a new attempt) and how many times each scheduled job
 * ran, which is what proves "once per tick" across workers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE reindex_jobs ADD COLUMN attempts integer NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE scheduler_state ADD COLUMN run_count bigint NOT NULL DEFAULT 0`.execute(db);
  // The promotion pass reads live short-term rows by access count; the expiry index covers the sweep.
  await sql`CREATE INDEX memories_stm_promotion_idx ON memories (id) WHERE tier = 'stm' AND deleted_at IS NULL`.execute(db);
}
