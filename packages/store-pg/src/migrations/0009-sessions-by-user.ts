import { type Kysely, sql } from 'kysely';

/**
 * A user's sessions, newest first, without reading every user's: for listing them and for
 * ending all of them at once (`memsvc sessions revoke --user`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX sessions_user_idx ON sessions (user_id, created_at DESC)`.execute(db);
}
