import { type Kysely, sql } from 'kysely';

/**
 * What an operator decided about a GitHub or Google account (issue 37 #2): `pinned_at`, when they
 * linked it to its user themselves (it then logs in whatever its email), and `blocked_at`, when
 * they blocked it (it cannot log in). Existing links get neither, so each keeps logging in only
 * while its verified email is still the address it was linked by (its user id). The index serves
 * `memsvc identities list --user`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE user_identities ADD COLUMN pinned_at timestamptz, ADD COLUMN blocked_at timestamptz`.execute(db);
  await sql`CREATE INDEX user_identities_user_idx ON user_identities (user_id)`.execute(db);
}
