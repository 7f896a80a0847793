import { type Kysely, sql } from 'kysely';

/**
 * The session a key was made in (the dashboard's Access page), so that logging out of it, or
 * ending it any other way, revokes the key too; the partial index serves that revocation.
 *
 * Before this, a revoked key could still mint: a session exchanged for it while the revocation
 * was in flight, and keys made in that session. Keys whose parent was revoked before they were
 * made are revoked now, at their parent's revocation time, at any depth.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE api_keys ADD COLUMN session_jti text`.execute(db);
  await sql`CREATE INDEX api_keys_session_idx ON api_keys (session_jti) WHERE session_jti IS NOT NULL`.execute(db);
  await sql`
    WITH RECURSIVE orphaned (id, ended) AS (
      SELECT child.id, parent.revoked_at FROM api_keys AS child
        JOIN api_keys AS parent ON child.parent_key_id = parent.id
        WHERE parent.revoked_at IS NOT NULL AND child.revoked_at IS NULL
      UNION
      SELECT child.id, orphaned.ended FROM api_keys AS child
        JOIN orphaned ON child.parent_key_id = orphaned.id
        WHERE child.revoked_at IS NULL
    )
    UPDATE api_keys SET revoked_at = (SELECT min(ended) FROM orphaned WHERE orphaned.id = api_keys.id)
    WHERE id IN (SELECT id FROM orphaned)`.execute(db);
}
