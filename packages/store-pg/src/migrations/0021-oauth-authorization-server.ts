import { type Kysely, sql } from 'kysely';

/**
 * memsvc as an OAuth 2.1 authorization server for MCP clients (docs/security.md): clients
 * registered dynamically (RFC 7591); authorization requests waiting for consent and issued
 * codes, each kept as the SHA-256 of its secret and consumed once; refresh tokens, hashed, in
 * families that a reused token revokes. Sessions learn the family they were issued from, so that
 * revocation ends the family's access tokens too (the partial index serves it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE oauth_clients (
      client_id text PRIMARY KEY,
      client_name text,
      client_uri text,
      redirect_uris text[] NOT NULL,
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE oauth_pending_authorizations (
      handle_hash text PRIMARY KEY,
      client_id text NOT NULL,
      redirect_uri text NOT NULL,
      code_challenge text NOT NULL,
      resource text NOT NULL,
      scopes text[] NOT NULL,
      state text,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE oauth_codes (
      code_hash text PRIMARY KEY,
      client_id text NOT NULL,
      redirect_uri text NOT NULL,
      code_challenge text NOT NULL,
      resource text NOT NULL,
      scopes text[] NOT NULL,
      user_id text NOT NULL,
      organization_id text,
      origin text NOT NULL,
      api_key_id uuid,
      not_after timestamptz,
      sign_in_jti text,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      redeemed_at timestamptz,
      family_id uuid
    )`.execute(db);
  await sql`
    CREATE TABLE oauth_refresh_families (
      id uuid PRIMARY KEY,
      client_id text NOT NULL,
      resource text NOT NULL,
      scopes text[] NOT NULL,
      user_id text NOT NULL,
      organization_id text,
      origin text NOT NULL,
      api_key_id uuid,
      sign_in_jti text,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`.execute(db);
  await sql`
    CREATE TABLE oauth_refresh_tokens (
      token_hash text PRIMARY KEY,
      family_id uuid NOT NULL REFERENCES oauth_refresh_families (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL,
      used_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX oauth_refresh_tokens_family_idx ON oauth_refresh_tokens (family_id)`.execute(db);
  await sql`CREATE INDEX oauth_pending_expiry_idx ON oauth_pending_authorizations (expires_at)`.execute(db);
  await sql`CREATE INDEX oauth_codes_expiry_idx ON oauth_codes (expires_at)`.execute(db);
  await sql`CREATE INDEX oauth_refresh_families_expiry_idx ON oauth_refresh_families (expires_at)`.execute(db);
  await sql`ALTER TABLE sessions ADD COLUMN oauth_family_id uuid`.execute(db);
  await sql`CREATE INDEX sessions_oauth_family_idx ON sessions (oauth_family_id) WHERE oauth_family_id IS NOT NULL`.execute(db);
}
