import { type Kysely, sql } from 'kysely';

/**
 * Everything spec §1.2 keeps in the database. Statements are plain SQL because the schema uses
 * pgvector, generated tsvector columns, partial indexes and check constraints; Kysely runs the
 * whole migration in one transaction under its advisory lock.
 *
 * The `embedding` column starts untyped: its dimensionality is fixed later (VECTOR_DIMENSIONS,
 * the model's size or the first vector) by the vector-space manager, which also builds the HNSW
 * index with the operator's PGVECTOR_HNSW_* settings.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS vector`.execute(db);

  await sql`
    CREATE TABLE memories (
      id               uuid PRIMARY KEY,
      user_id          text NOT NULL CHECK (length(user_id) BETWEEN 1 AND 128),
      tier             text NOT NULL CHECK (tier IN ('stm', 'ltm')),
      scope            text CHECK (scope IS NULL OR length(scope) BETWEEN 1 AND 256),
      content          text NOT NULL,
      content_hash     text NOT NULL,
      tags             text[] NOT NULL DEFAULT '{}',
      metadata         jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
      -- double precision, not real: with real, 0.3 is stored as 0.30000001 and "at or below
      -- the stale threshold 0.3" (spec §3.2) would be false for a score of exactly 0.3.
      importance       double precision CHECK (importance BETWEEN 0 AND 1),
      importance_score double precision NOT NULL DEFAULT 0.5,
      access_count     integer NOT NULL DEFAULT 0 CHECK (access_count >= 0),
      last_accessed_at timestamptz,
      expires_at       timestamptz,
      pinned           boolean NOT NULL DEFAULT false,
      stale            boolean NOT NULL DEFAULT false,
      contradicted     boolean NOT NULL DEFAULT false,
      superseded_by    uuid REFERENCES memories (id) ON DELETE SET NULL,
      deleted_at       timestamptz,
      version          integer NOT NULL DEFAULT 1 CHECK (version >= 1),
      embedding        vector,
      embedding_model  text,
      embedded_at      timestamptz,
      search_vector    tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
      created_at       timestamptz NOT NULL DEFAULT now(),
      updated_at       timestamptz NOT NULL DEFAULT now(),
      -- Short-term rows always expire; long-term rows never do (spec §2.1).
      CONSTRAINT memories_expiry_matches_tier CHECK ((tier = 'stm') = (expires_at IS NOT NULL))
    )`.execute(db);
  // Listing and paging within one tenant: newest first by time-ordered id.
  await sql`CREATE INDEX memories_user_live_idx ON memories (user_id, id DESC) WHERE deleted_at IS NULL`.execute(db);
  // Exact-content duplicate collapse works without vectors.
  await sql`CREATE INDEX memories_user_hash_idx ON memories (user_id, content_hash) WHERE deleted_at IS NULL`.execute(db);
  await sql`CREATE INDEX memories_user_scope_idx ON memories (user_id, scope, id DESC) WHERE deleted_at IS NULL`.execute(db);
  await sql`CREATE INDEX memories_search_idx ON memories USING gin (search_vector)`.execute(db);
  // The short-term expiry sweep and the promotion scan.
  await sql`CREATE INDEX memories_stm_expiry_idx ON memories (expires_at) WHERE tier = 'stm'`.execute(db);
  // Reindex and backfill walk rows by id and find the ones without a vector.
  await sql`CREATE INDEX memories_unembedded_idx ON memories (id) WHERE embedding IS NULL AND deleted_at IS NULL`.execute(db);

  // No foreign key to memories: the audit trail outlives a hard delete, which is what makes a
  // pruned or deleted memory restorable.
  await sql`
    CREATE TABLE memory_audit (
      id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      memory_id  uuid NOT NULL,
      user_id    text NOT NULL,
      actor      text NOT NULL,
      action     text NOT NULL,
      version    integer,
      before     jsonb,
      after      jsonb,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX memory_audit_memory_idx ON memory_audit (user_id, memory_id, id DESC)`.execute(db);

  await sql`
    CREATE TABLE memory_links (
      id               uuid PRIMARY KEY,
      user_id          text NOT NULL,
      source_memory_id uuid NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
      target_memory_id uuid REFERENCES memories (id) ON DELETE SET NULL,
      target_locator   text NOT NULL,
      rel_type         text NOT NULL CHECK (rel_type IN (
                         'relates-to', 'duplicate-of', 'contradicts', 'superseded-by', 'supersedes',
                         'derived-from', 'source-of')),
      origin           text NOT NULL CHECK (origin IN ('authored', 'derived')),
      score            double precision,
      note             text,
      metadata         jsonb NOT NULL DEFAULT '{}',
      created_at       timestamptz NOT NULL DEFAULT now(),
      UNIQUE (source_memory_id, target_locator, rel_type)
    )`.execute(db);
  await sql`CREATE INDEX memory_links_target_idx ON memory_links (target_memory_id) WHERE target_memory_id IS NOT NULL`.execute(db);

  await sql`
    CREATE TABLE reindex_jobs (
      id               uuid PRIMARY KEY,
      state            text NOT NULL CHECK (state IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
      user_id          text,
      params           jsonb NOT NULL DEFAULT '{}',
      cursor           uuid,
      processed        integer NOT NULL DEFAULT 0,
      indexed          integer NOT NULL DEFAULT 0,
      skipped          integer NOT NULL DEFAULT 0,
      failed           integer NOT NULL DEFAULT 0,
      cancel_requested boolean NOT NULL DEFAULT false,
      error            text,
      requested_by     text,
      runner_id        text,
      heartbeat_at     timestamptz,
      created_at       timestamptz NOT NULL DEFAULT now(),
      started_at       timestamptz,
      finished_at      timestamptz,
      updated_at       timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  // Spec §8: reindex jobs run one at a time, across every worker. The database enforces it.
  await sql`CREATE UNIQUE INDEX reindex_jobs_one_running_idx ON reindex_jobs ((true)) WHERE state = 'running'`.execute(db);
  await sql`CREATE INDEX reindex_jobs_queue_idx ON reindex_jobs (created_at) WHERE state = 'queued'`.execute(db);

  await sql`
    CREATE TABLE scheduler_state (
      job_name         text PRIMARY KEY,
      cursor           text,
      last_started_at  timestamptz,
      last_finished_at timestamptz,
      last_status      text,
      last_error       text,
      updated_at       timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  // At most one row: the dimensionality and index settings all vectors share.
  await sql`
    CREATE TABLE vector_space (
      id                   boolean PRIMARY KEY DEFAULT true CHECK (id),
      dimensions           integer NOT NULL CHECK (dimensions BETWEEN 1 AND 16000),
      model                text,
      hnsw_m               integer,
      hnsw_ef_construction integer,
      updated_at           timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  await createAuthTables(db);
}

async function createAuthTables(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE organizations (
      id         uuid PRIMARY KEY,
      name       text NOT NULL,
      slug       text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE organization_members (
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      user_id         text NOT NULL,
      role            text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      created_at      timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, user_id)
    )`.execute(db);
  await sql`CREATE INDEX organization_members_user_idx ON organization_members (user_id)`.execute(db);
  await sql`
    CREATE TABLE user_identities (
      provider         text NOT NULL CHECK (provider IN ('github', 'google')),
      provider_user_id text NOT NULL,
      user_id          text NOT NULL,
      email            text,
      display_name     text,
      created_at       timestamptz NOT NULL DEFAULT now(),
      last_login_at    timestamptz,
      PRIMARY KEY (provider, provider_user_id)
    )`.execute(db);
  // Keys are stored only as hashes; the prefix lets a user recognise a key without revealing it.
  await sql`
    CREATE TABLE api_keys (
      id              uuid PRIMARY KEY,
      user_id         text NOT NULL,
      organization_id uuid REFERENCES organizations (id) ON DELETE CASCADE,
      name            text NOT NULL,
      prefix          text NOT NULL,
      key_hash        text NOT NULL UNIQUE,
      scopes          text[] NOT NULL DEFAULT '{}',
      created_at      timestamptz NOT NULL DEFAULT now(),
      last_used_at    timestamptz,
      expires_at      timestamptz,
      revoked_at      timestamptz
    )`.execute(db);
  await sql`CREATE INDEX api_keys_user_idx ON api_keys (user_id)`.execute(db);
  await sql`
    CREATE TABLE sessions (
      id         uuid PRIMARY KEY,
      user_id    text NOT NULL,
      jti        text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      user_agent text,
      ip_address text
    )`.execute(db);
  await sql`CREATE INDEX sessions_expiry_idx ON sessions (expires_at)`.execute(db);
  await sql`
    CREATE TABLE oauth_states (
      state_hash    text PRIMARY KEY,
      provider      text NOT NULL CHECK (provider IN ('github', 'google')),
      code_verifier text,
      redirect_to   text,
      created_at    timestamptz NOT NULL DEFAULT now(),
      expires_at    timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX oauth_states_expiry_idx ON oauth_states (expires_at)`.execute(db);
  await sql`
    CREATE TABLE jwt_denylist (
      jti        text PRIMARY KEY,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX jwt_denylist_expiry_idx ON jwt_denylist (expires_at)`.execute(db);
  await sql`
    CREATE TABLE rate_limit_counters (
      bucket       text NOT NULL,
      window_start timestamptz NOT NULL,
      count        integer NOT NULL DEFAULT 0,
      expires_at   timestamptz NOT NULL,
      PRIMARY KEY (bucket, window_start)
    )`.execute(db);
  await sql`CREATE INDEX rate_limit_counters_expiry_idx ON rate_limit_counters (expires_at)`.execute(db);
}
