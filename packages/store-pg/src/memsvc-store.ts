import type { DatabaseTarget } from '@memsvc/access';
import type { Clock, IdGenerator, Timers, Tracer } from '@memsvc/core';
import type { PgApiKeyStore } from './auth/pg-api-key-store.js';
import type { PgOAuthAuthorizationStore } from './auth/pg-oauth-authorization-store.js';
import type { PgOAuthClientStore } from './auth/pg-oauth-client-store.js';
import type { PgOAuthRefreshStore } from './auth/pg-oauth-refresh-store.js';
import type { PgOAuthStateStore } from './auth/pg-oauth-state-store.js';
import type { PgOrganizationStore } from './auth/pg-organization-store.js';
import type { PgSessionStore } from './auth/pg-session-store.js';
import type { PgUserIdentityStore } from './auth/pg-user-identity-store.js';
import type { OpenDatabaseOptions, StoreConnection } from './connection/open-database.js';
import type { PgliteAutovacuum } from './connection/pglite-autovacuum.js';
import type { PgliteTemplatesOptions } from './connection/pglite-templates.js';
import type { PgErasureStore } from './erasure/pg-erasure-store.js';
import type { PgliteCompaction } from './erasure/pglite-compaction.js';
import type { PgExportStore } from './export/pg-export-store.js';
import type { PgGrantStore } from './grants/pg-grant-store.js';
import type { PgImportLedgerStore } from './import/pg-import-ledger-store.js';
import type { PgImportStore } from './import/pg-import-store.js';
import type { JobRuns } from './jobs/job-runs.js';
import type { PgLifecycleStore } from './lifecycle/pg-lifecycle-store.js';
import type { PgMemoryStore } from './memory/pg-memory-store.js';
import type { PgOperationsReads } from './operations/pg-operations-reads.js';
import type { PgRateLimitStore } from './rate-limit/pg-rate-limit-store.js';
import type { PgReindexJobQueue } from './reindex/pg-reindex-jobs.js';
import type { PgReindexStore } from './reindex/pg-reindex-store.js';
import type { ReadReplica, ReadReplicaOptions } from './replica/open-read-replica.js';
import type { PgReviewStore } from './review/pg-review-store.js';
import type { PgVectorSpace } from './vector/pg-vector-space.js';
import type { VectorFeatures } from './vector/vector-features.js';

export interface VectorOptions {
  /** `VECTOR_DIMENSIONS`: a strict pin. */
  readonly dimensions?: number | undefined;
  /** `EMBEDDING_MODEL`: its documented size is used when no pin is set. */
  readonly model?: string | undefined;
  readonly hnswM?: number | undefined;
  readonly hnswEfConstruction?: number | undefined;
  readonly hnswEfSearch?: number | undefined;
}

export interface OpenStoreOptions {
  /** A `DATABASE_URL` or an already parsed target. */
  readonly database: string | DatabaseTarget;
  readonly vector?: VectorOptions;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  readonly pool?: OpenDatabaseOptions;
  /** Each statement run inside a span becomes a child span (operation keyword only); default: none. */
  readonly tracer?: Tracer;
  /** Apply pending migrations while opening (default true). */
  readonly migrate?: boolean;
  /**
   * The embedded engine's stand-in for autovacuum (PgliteAutovacuum): how often it checks the
   * tables (PGLITE_AUTOVACUUM_INTERVAL_MS suits a long-running process; off when not given, so
   * a short-lived store or a test sees no background statement) and where its failures go.
   * PostgreSQL runs its own autovacuum, so this is ignored there.
   */
  readonly autovacuum?: {
    readonly intervalMs?: number;
    readonly onError?: (error: unknown) => void;
    readonly timers?: Timers;
  };
  /**
   * PGlite only: a new embedded database starts from the template kept in this directory instead
   * of initdb and the migrations (~0.5 s instead of 3–4 s), and the first one this build creates
   * is kept there as the template (PgliteTemplates; MEMSVC_CACHE_DIR). Used only when migrating.
   */
  readonly pgliteTemplates?: { readonly directory: string } & PgliteTemplatesOptions;
  /**
   * Where failures of background upkeep go (a new database's first ANALYZE, FirstStatistics; a
   * PGlite template that could not be loaded or saved); default: ignored.
   */
  readonly onUpkeepError?: (error: unknown) => void;
  /**
   * DATABASE_READ_URL: a PostgreSQL hot standby that serves the read tools (`readReplica`).
   * PostgreSQL primaries only; checked at open (a primary given here is refused).
   */
  readonly readDatabase?: ReadReplicaOptions;
}

/** The result of one cheap health round trip. */
export interface StoreHealth {
  readonly database: boolean;
  readonly pgvector: boolean;
  readonly pgvectorVersion: string | undefined;
  readonly error: string | undefined;
}

/** Everything memsvc keeps in the database, open and migrated. */
export interface MemsvcStore {
  readonly connection: StoreConnection;
  readonly memories: PgMemoryStore;
  /**
   * With `readDatabase`: the hot standby, and `readReplica.memories`, the MemoryStore that sends
   * the read tools' reads to it (give that one to the engine). Undefined otherwise.
   */
  readonly readReplica: ReadReplica | undefined;
  /** The paged, tenant-scoped read an export is made of (issue 17). */
  readonly exports: PgExportStore;
  /** Bulk writes of imported memories into one tenant, ids and all (issue 17). */
  readonly imports: PgImportStore;
  /** Which memory each imported section of an agent's file became. */
  readonly importLedger: PgImportLedgerStore;
  readonly vectorSpace: PgVectorSpace;
  readonly vectorFeatures: VectorFeatures;
  /** The scheduled jobs' cross-tenant scans (sweep, promotion, decay, corpus merge). */
  readonly lifecycle: PgLifecycleStore;
  /** Vector batches for reindex runs. */
  readonly reindex: PgReindexStore;
  /** The reindex job queue every worker shares. */
  readonly reindexJobs: PgReindexJobQueue;
  /** The review queue's tenant-scoped reads (contradicted pairs, fading memories) and its one write (clearing contradicted marks). */
  readonly review: PgReviewStore;
  /** The operator's cross-tenant reads for the dashboard's operations page: activity, tiers over time, scheduler runs. */
  readonly operations: PgOperationsReads;
  /** Once-per-interval execution of scheduled jobs across processes. */
  readonly jobRuns: JobRuns;
  /** Per-agent API keys, stored hashed. */
  readonly apiKeys: PgApiKeyStore;
  /** Organizations and their members. */
  readonly organizations: PgOrganizationStore;
  /** Erasure for good and its records, on the primary (give it to the engine as `erasures`). */
  readonly erasures: PgErasureStore;
  /**
   * On a PGlite directory, the compaction that leaves erased text in no file of it: every erasure
   * runs it before returning (CompactingErasureStore); `memsvc erase compact` runs it on its own.
   * Undefined on PostgreSQL and in memory.
   */
  readonly compaction: PgliteCompaction | undefined;
  /** Spaces shared by grant, always read on the primary (give it to the engine as `grants`). */
  readonly grants: PgGrantStore;
  /** Issued session tokens and the denylist of revoked ones. */
  readonly sessions: PgSessionStore;
  /** The rate limiter's fixed-window counters, shared by every replica. */
  readonly rateLimits: PgRateLimitStore;
  /** OAuth logins in progress, each consumed at most once. */
  readonly oauthStates: PgOAuthStateStore;
  /** Clients registered with memsvc's own authorization server (RFC 7591). */
  readonly oauthClients: PgOAuthClientStore;
  /** Authorization requests waiting for consent, and issued codes: each used once. */
  readonly oauthAuthorizations: PgOAuthAuthorizationStore;
  /** Refresh-token families of the authorization server, rotated on every use. */
  readonly oauthRefresh: PgOAuthRefreshStore;
  /** Which user an identity-provider account logs in as. */
  readonly userIdentities: PgUserIdentityStore;
  /** On PGlite, the vacuum and analyze its single process never runs by itself; undefined on PostgreSQL. */
  readonly autovacuum: PgliteAutovacuum | undefined;
  /** One query that proves the database answers and the vector extension is there. */
  health(): Promise<StoreHealth>;
  close(): Promise<void>;
}
