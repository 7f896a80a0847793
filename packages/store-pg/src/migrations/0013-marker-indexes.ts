import { type Kysely, sql } from 'kysely';

/**
 * The dashboard lists a tenant's memories by marker (pinned, stale, contradicted), newest first,
 * and its review queue reads the contradicted ones. Marked memories are few: without these
 * partial indexes each of those pages walked the tenant's whole live index to find them (50–80 ms
 * at 50,000 memories); with them it reads only the marked rows. Small, since few rows qualify.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const marker of ['pinned', 'stale', 'contradicted']) {
    await sql`
      CREATE INDEX ${sql.raw(`memories_user_${marker}_idx`)} ON memories (user_id, id DESC)
        WHERE ${sql.raw(marker)} AND deleted_at IS NULL`.execute(db);
  }
}
