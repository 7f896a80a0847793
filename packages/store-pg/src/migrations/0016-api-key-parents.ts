import { type Kysely, sql } from 'kysely';

/**
 * The key a key was made with, when it was made in a session opened with a key (the dashboard's
 * Access page): revoking a key revokes the keys made from it too, so a key handed to an agent
 * cannot leave behind a credential that outlives its revocation. Keys made by an operator or by
 * a person signed in with GitHub or Google have none. The partial index serves the revocation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE api_keys ADD COLUMN parent_key_id uuid REFERENCES api_keys (id) ON DELETE SET NULL`.execute(db);
  await sql`CREATE INDEX api_keys_parent_idx ON api_keys (parent_key_id) WHERE parent_key_id IS NOT NULL`.execute(db);
}
