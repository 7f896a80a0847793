export type { PgApiKeyStoreOptions } from './auth/pg-api-key-store.js';
export { PgApiKeyStore } from './auth/pg-api-key-store.js';
export type { PgOAuthAuthorizationStoreOptions } from './auth/pg-oauth-authorization-store.js';
export { PgOAuthAuthorizationStore } from './auth/pg-oauth-authorization-store.js';
export type { PgOAuthClientStoreOptions } from './auth/pg-oauth-client-store.js';
export { PgOAuthClientStore } from './auth/pg-oauth-client-store.js';
export type { PgOAuthRefreshStoreOptions } from './auth/pg-oauth-refresh-store.js';
export { PgOAuthRefreshStore } from './auth/pg-oauth-refresh-store.js';
export type { PgOAuthStateStoreOptions } from './auth/pg-oauth-state-store.js';
export { PgOAuthStateStore } from './auth/pg-oauth-state-store.js';
export type { PgOrganizationStoreOptions } from './auth/pg-organization-store.js';
export { PgOrganizationStore } from './auth/pg-organization-store.js';
export type { PgSessionStoreOptions } from './auth/pg-session-store.js';
export { PgSessionStore } from './auth/pg-session-store.js';
export type { PgUserIdentityStoreOptions } from './auth/pg-user-identity-store.js';
export { PgUserIdentityStore } from './auth/pg-user-identity-store.js';
export type { DatabaseEngine, OpenDatabaseOptions, StoreConnection } from './connection/open-database.js';
export { openDatabase } from './connection/open-database.js';
export type { TableActivity, TableUpkeep } from './connection/pglite-autovacuum.js';
export { PGLITE_AUTOVACUUM_INTERVAL_MS, PgliteAutovacuum, upkeepOf } from './connection/pglite-autovacuum.js';
export { embeddedDatabaseExists } from './connection/pglite-layout.js';
export type { PostgresPoolOptions } from './connection/postgres-pool.js';
export { isTransientDatabaseError } from './connection/transient-errors.js';
export type { PgExportStoreOptions } from './export/pg-export-store.js';
export { PgExportStore } from './export/pg-export-store.js';
export { isUuid, UuidV7Generator } from './ids/uuid-v7.js';
export { PgImportLedgerStore } from './import/pg-import-ledger-store.js';
export type { PgImportStoreOptions } from './import/pg-import-store.js';
export { PgImportStore } from './import/pg-import-store.js';
export type { JobRunOutcome } from './jobs/job-runs.js';
export { JobRuns, jobLockKey } from './jobs/job-runs.js';
export type { PgLifecycleStoreOptions } from './lifecycle/pg-lifecycle-store.js';
export { PgLifecycleStore } from './lifecycle/pg-lifecycle-store.js';
export type { PgMemoryStoreOptions } from './memory/pg-memory-store.js';
export { MAX_PAGE_SIZE, PgMemoryStore } from './memory/pg-memory-store.js';
export {
  KNOWN_MIGRATIONS,
  MIGRATION_LOCK_TABLE,
  MIGRATION_TABLE,
  migrateToLatest,
  migrateUpTo,
  pendingMigrations,
} from './migrations/migrate.js';
export type { MemsvcStore, OpenStoreOptions, StoreHealth, VectorOptions } from './open-store.js';
export { openStore } from './open-store.js';
export type {
  HourlyOperations,
  OperationsActivity,
  PgOperationsReadsOptions,
  SchedulerRun,
  TierDay,
} from './operations/pg-operations-reads.js';
export { AUDIT_SCAN_MAX, PgOperationsReads } from './operations/pg-operations-reads.js';
export type { PgRateLimitStoreOptions } from './rate-limit/pg-rate-limit-store.js';
export { PgRateLimitStore } from './rate-limit/pg-rate-limit-store.js';
export { PgReindexJobQueue } from './reindex/pg-reindex-jobs.js';
export type { PgReindexStoreOptions } from './reindex/pg-reindex-store.js';
export { PgReindexStore } from './reindex/pg-reindex-store.js';
export type { PrimaryStoreParts, ReadReplica, ReadReplicaOptions } from './replica/open-read-replica.js';
export { DEFAULT_READ_MAX_LAG_MS, openReadReplica } from './replica/open-read-replica.js';
export type { ReplicaRoutedMemoryStoreOptions } from './replica/replica-routed-memory-store.js';
export { ReplicaRoutedMemoryStore } from './replica/replica-routed-memory-store.js';
export type { ReadReason, ReadRoute, ReplicaEvents, ReplicaState, ReplicaStatus } from './replica/replica-status.js';
export type { PgReviewStoreOptions } from './review/pg-review-store.js';
export { PgReviewStore } from './review/pg-review-store.js';
export type { MemsvcDatabase } from './schema/database-schema.js';
export { systemClock } from './system-clock.js';
export type { HnswBuildOptions, NewVectorSpace } from './vector/pg-vector-space.js';
export { BACKFILL_SHARD_MIN, PgVectorSpace } from './vector/pg-vector-space.js';
export type { VectorFeatures } from './vector/vector-features.js';
export { detectVectorFeatures } from './vector/vector-features.js';
export {
  HNSW_SHARD_INDEX_NAMES,
  hnswShardIndexName,
  usableHnswShardIndexes,
  VECTOR_SHARDS,
  vectorShardOf,
} from './vector/vector-shards.js';
