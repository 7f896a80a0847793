import type { ColumnType, Generated } from 'kysely';

/** A column the database fills in on insert (a default) that can still be set. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;
/** A timestamp column with a database default. */
type Timestamp = ColumnType<Date, Date | undefined, Date>;
/** A jsonb column: written as JSON text, read as a parsed value. */
type Json<T> = ColumnType<T, string | undefined, string>;

export interface MemoriesTable {
  id: string;
  user_id: string;
  tier: 'stm' | 'ltm';
  scope: string | null;
  content: string;
  content_hash: string;
  tags: Defaulted<string[]>;
  metadata: Json<Record<string, unknown>>;
  importance: number | null;
  importance_score: Defaulted<number>;
  access_count: Defaulted<number>;
  last_accessed_at: Date | null;
  expires_at: Date | null;
  pinned: Defaulted<boolean>;
  stale: Defaulted<boolean>;
  contradicted: Defaulted<boolean>;
  superseded_by: string | null;
  /** The newer memory that changed this fact (issue 38); the row stays visible, marked. */
  replaced_by: string | null;
  deleted_at: Date | null;
  version: Defaulted<number>;
  /** pgvector text form `[1,2,3]`; never selected into results. */
  embedding: string | null;
  embedding_model: string | null;
  embedded_at: Date | null;
  search_context: string | null;
  /** Generated from user_id: which HNSW shard index holds the row's vector (vector-shards.ts). */
  vector_shard: ColumnType<number, never, never>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MemoryAuditTable {
  id: Generated<string>;
  memory_id: string;
  user_id: string;
  actor: string;
  action: string;
  version: number | null;
  before: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  after: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  created_at: Timestamp;
}

export interface MemoryLinksTable {
  id: string;
  user_id: string;
  source_memory_id: string;
  target_memory_id: string | null;
  target_locator: string;
  rel_type: string;
  origin: 'authored' | 'derived';
  score: number | null;
  note: string | null;
  metadata: Json<Record<string, unknown>>;
  created_at: Timestamp;
}

export interface ReindexJobsTable {
  id: string;
  state: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  user_id: string | null;
  params: Json<Record<string, unknown>>;
  cursor: string | null;
  processed: Defaulted<number>;
  indexed: Defaulted<number>;
  skipped: Defaulted<number>;
  failed: Defaulted<number>;
  cancel_requested: Defaulted<boolean>;
  error: string | null;
  requested_by: string | null;
  runner_id: string | null;
  heartbeat_at: Date | null;
  attempts: Defaulted<number>;
  created_at: Timestamp;
  started_at: Date | null;
  finished_at: Date | null;
  updated_at: Timestamp;
}

export interface SchedulerStateTable {
  job_name: string;
  cursor: string | null;
  last_started_at: Date | null;
  last_finished_at: Date | null;
  last_status: string | null;
  last_error: string | null;
  run_count: Defaulted<string>;
  updated_at: Timestamp;
}

export interface VectorSpaceTable {
  id: Defaulted<boolean>;
  dimensions: number;
  model: string | null;
  hnsw_m: number | null;
  hnsw_ef_construction: number | null;
  updated_at: Timestamp;
}

export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OrganizationMembersTable {
  organization_id: string;
  user_id: string;
  role: 'owner' | 'admin' | 'member';
  created_at: Timestamp;
}

export interface UserIdentitiesTable {
  provider: 'github' | 'google';
  provider_user_id: string;
  user_id: string;
  email: string | null;
  display_name: string | null;
  created_at: Timestamp;
  last_login_at: Date | null;
  /** When an operator linked the account to `user_id` themselves (migration 0018), or null. */
  pinned_at: Defaulted<Date | null>;
  /** When an operator blocked the account (migration 0018), or null. */
  blocked_at: Defaulted<Date | null>;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  organization_id: string | null;
  name: string;
  prefix: string;
  key_hash: string;
  scopes: Defaulted<string[]>;
  created_at: Timestamp;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  parent_key_id: Defaulted<string | null>;
  /** The jti of the session the key was made in (0017): the key ends with that session. */
  session_jti: Defaulted<string | null>;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  jti: string;
  created_at: Timestamp;
  expires_at: Date;
  revoked_at: Date | null;
  user_agent: string | null;
  ip_address: string | null;
  /** The API key the session was exchanged for (migration 0014); null for identity-provider logins. */
  api_key_id: string | null;
  /** The OAuth refresh family an access token was issued from (0021): revoking the family ends it. */
  oauth_family_id: Defaulted<string | null>;
}

/** A client registered by dynamic registration (0021). */
export interface OAuthClientsTable {
  client_id: string;
  client_name: string | null;
  client_uri: string | null;
  redirect_uris: string[];
  created_at: Date;
}

/** An authorization request waiting for consent, under the hash of its handle (0021). */
export interface OAuthPendingAuthorizationsTable {
  handle_hash: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scopes: string[];
  state: string | null;
  created_at: Date;
  expires_at: Date;
}

/** An issued authorization code's binding, under the code's hash (0021). */
export interface OAuthCodesTable {
  code_hash: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scopes: string[];
  user_id: string;
  organization_id: string | null;
  origin: string;
  api_key_id: string | null;
  not_after: Date | null;
  sign_in_jti: string | null;
  created_at: Date;
  expires_at: Date;
  /** When the code was redeemed; kept until it expires, so a second use is recognised. */
  redeemed_at: Generated<Date | null>;
  /** The refresh family issued for it: revoked when the code is presented again. */
  family_id: Generated<string | null>;
}

/** A refresh-token family: one consent's grant (0021). */
export interface OAuthRefreshFamiliesTable {
  id: string;
  client_id: string;
  resource: string;
  scopes: string[];
  user_id: string;
  organization_id: string | null;
  origin: string;
  api_key_id: string | null;
  sign_in_jti: string | null;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

/** A refresh token of a family, by its hash; `used_at` once rotated (0021). */
export interface OAuthRefreshTokensTable {
  token_hash: string;
  family_id: string;
  created_at: Date;
  used_at: Date | null;
}

export interface OAuthStatesTable {
  state_hash: string;
  provider: 'github' | 'google';
  code_verifier: string | null;
  redirect_to: string | null;
  created_at: Timestamp;
  expires_at: Date;
}

export interface JwtDenylistTable {
  jti: string;
  expires_at: Date;
  created_at: Timestamp;
}

export interface RateLimitCountersTable {
  bucket: string;
  window_start: Date;
  count: Defaulted<number>;
  expires_at: Date;
}

/** One posting of the lexical index: a stemmed term of a live memory (migration 0008). */
export interface MemoryTermsTable {
  memory_id: string;
  user_id: string;
  term: string;
  content_frequency: number;
  context_frequency: number;
  content_length: number;
  context_length: number;
  impact: number;
}

/**
 * How many of a tenant's live memories contain a term (BM25's document frequency): the sum over
 * the term's stripes (migration 0015); one stripe's count alone means nothing and may be negative.
 */
export interface LexicalTermsTable {
  user_id: string;
  term: string;
  stripe: Generated<number>;
  documents: number;
}

/** A tenant's indexed memories and their total lengths (BM25's N and average length), summed over its stripes. */
export interface LexicalCorpusTable {
  user_id: string;
  stripe: Generated<number>;
  documents: number;
  total_content_length: number;
  total_context_length: number;
}

/** Which memory an imported section became, and what was written (migration 0011). */
export interface MemoryImportLedgerTable {
  user_id: string;
  source: string;
  root: string;
  file: string;
  section: string;
  memory_id: string;
  fingerprint: string;
  memory_version: number;
  imported_at: Date;
}

/** One space of an owner's memories shared with a user, an organization or an API key (migration 0023). */
export interface MemoryGrantsTable {
  id: string;
  owner_id: string;
  space: string;
  grantee_kind: 'user' | 'organization' | 'api-key';
  grantee_id: string;
  access: 'read' | 'read-write';
  granted_by: string;
  created_at: Timestamp;
  expires_at: Date | null;
  revoked_at: Date | null;
  revoked_by: string | null;
}

/** A shared space a grantee reads without naming it (migration 0023). */
export interface MemoryGrantDefaultsTable {
  grant_id: string;
  user_id: string;
  created_at: Timestamp;
}

/** The record of an erasure (migration 0022): the one place the erased ids stay. */
export interface MemoryErasuresTable {
  id: string;
  user_id: string;
  actor: string;
  erased_at: Date;
  state: 'pending' | 'completed';
  whole_user: Defaulted<boolean>;
  memory_ids: string[];
  digest: string;
  counts: Json<Record<string, number>>;
  /** The salt of `quote_fingerprints` (migration 0024); null when there are none. */
  quote_salt: string | null;
  /** `<length>:<sha256 hex of salt + quote>` of every quote the erased memories could have left. */
  quote_fingerprints: Defaulted<string[]>;
}

/** Every table memsvc keeps, as Kysely sees them. */
export interface MemsvcDatabase {
  memories: MemoriesTable;
  memory_audit: MemoryAuditTable;
  memory_links: MemoryLinksTable;
  reindex_jobs: ReindexJobsTable;
  scheduler_state: SchedulerStateTable;
  vector_space: VectorSpaceTable;
  organizations: OrganizationsTable;
  organization_members: OrganizationMembersTable;
  user_identities: UserIdentitiesTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  oauth_states: OAuthStatesTable;
  oauth_clients: OAuthClientsTable;
  oauth_pending_authorizations: OAuthPendingAuthorizationsTable;
  oauth_codes: OAuthCodesTable;
  oauth_refresh_families: OAuthRefreshFamiliesTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
  jwt_denylist: JwtDenylistTable;
  rate_limit_counters: RateLimitCountersTable;
  memory_terms: MemoryTermsTable;
  lexical_terms: LexicalTermsTable;
  lexical_corpus: LexicalCorpusTable;
  memory_import_ledger: MemoryImportLedgerTable;
  memory_erasures: MemoryErasuresTable;
  memory_grants: MemoryGrantsTable;
  memory_grant_defaults: MemoryGrantDefaultsTable;
}
