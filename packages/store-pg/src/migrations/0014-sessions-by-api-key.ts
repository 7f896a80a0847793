import { type Kysely, sql } from 'kysely';

/**
 * Which API key a session was exchanged for, so revoking the key ends those sessions too: a
 * session must not outlive the credential that opened it. Sessions from an identity provider
 * have none. The partial index serves only the revocation, which reads a key's live sessions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sessions ADD COLUMN api_key_id uuid`.execute(db);
  await sql`CREATE INDEX sessions_api_key_idx ON sessions (api_key_id) WHERE api_key_id IS NOT NULL`.execute(db);
}
