import { type Kysely, sql } from 'kysely';

/**
 * An `asOf` read (recall, get_memory, list_memories as of a moment) first asks whether the
 * tenant had any memory by then; without this index that probe walks every audit row of the
 * tenant when the answer is no. The versions themselves are read through memory_audit_memory_idx.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX memory_audit_tenant_time_idx ON memory_audit (user_id, created_at)`.execute(db);
}
