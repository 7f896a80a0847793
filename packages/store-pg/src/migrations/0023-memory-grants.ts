import { type Kysely, sql } from 'kysely';

/**
 * Memory shared by grant (issue 43): an owner lets another user, every member of an
 * organization, or one API key read (or read and write) one space — one scope — of the owner's
 * memories, until it expires or is revoked. A revoked or expired grant stays as a row, so both
 * sides can see what was shared and when it ended.
 *
 * `memory_grant_defaults` holds the spaces a grantee chose to have in every read without naming
 * them (one row per grant and grantee user: an organization's members choose for themselves).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE memory_grants (
      id           uuid PRIMARY KEY,
      owner_id     text NOT NULL,
      space        text NOT NULL,
      grantee_kind text NOT NULL CHECK (grantee_kind IN ('user', 'organization', 'api-key')),
      grantee_id   text NOT NULL,
      access       text NOT NULL CHECK (access IN ('read', 'read-write')),
      granted_by   text NOT NULL,
      created_at   timestamptz NOT NULL DEFAULT now(),
      expires_at   timestamptz,
      revoked_at   timestamptz,
      revoked_by   text
    )`.execute(db);
  // The grantee's side is read on every call that may include shared spaces.
  await sql`CREATE INDEX memory_grants_grantee_idx ON memory_grants (grantee_kind, grantee_id) WHERE revoked_at IS NULL`.execute(db);
  await sql`CREATE INDEX memory_grants_owner_idx ON memory_grants (owner_id, created_at)`.execute(db);
  // One live grant per owner, space and grantee: granting again changes that grant.
  await sql`
    CREATE UNIQUE INDEX memory_grants_live_idx ON memory_grants (owner_id, space, grantee_kind, grantee_id)
    WHERE revoked_at IS NULL`.execute(db);
  await sql`
    CREATE TABLE memory_grant_defaults (
      grant_id   uuid NOT NULL REFERENCES memory_grants (id) ON DELETE CASCADE,
      user_id    text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (grant_id, user_id)
    )`.execute(db);
}
