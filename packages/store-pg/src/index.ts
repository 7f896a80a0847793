export type { DatabaseEngine, OpenDatabaseOptions, StoreConnection } from './connection/open-database.js';
export { openDatabase } from './connection/open-database.js';
export { PGLITE_AUTOVACUUM_INTERVAL_MS } from './connection/pglite-autovacuum.js';
export { embeddedDatabaseExists, embeddedDirectory } from './connection/pglite-layout.js';
export type { PostgresPoolOptions } from './connection/postgres-pool.js';
export { isTransientDatabaseError } from './connection/transient-errors.js';
export type { CompactionReport, PgliteCompaction } from './erasure/pglite-compaction.js';
export { isUuid, UuidV7Generator } from './ids/uuid-v7.js';
export type { JobRunOutcome } from './jobs/job-runs.js';
export { JobRuns } from './jobs/job-runs.js';
export type { MemsvcStore, OpenStoreOptions, StoreHealth, VectorOptions } from './memsvc-store.js';
export { KNOWN_MIGRATIONS, migrateToLatest, migrateUpTo, pendingMigrations } from './migrations/migrate.js';
export { openStore } from './open-store.js';
export type { HourlyOperations, OperationsActivity, SchedulerRun, TierDay } from './operations/pg-operations-reads.js';
export { PgOperationsReads } from './operations/pg-operations-reads.js';
export type { PgReindexStoreOptions } from './reindex/pg-reindex-store.js';
export { PgReindexStore } from './reindex/pg-reindex-store.js';
export type { PrimaryStoreParts, ReadReplica, ReadReplicaOptions } from './replica/open-read-replica.js';
export { DEFAULT_READ_MAX_LAG_MS, openReadReplica } from './replica/open-read-replica.js';
export type { ReadReason, ReadRoute, ReplicaEvents, ReplicaState, ReplicaStatus } from './replica/replica-status.js';
export type { MemsvcDatabase } from './schema/database-schema.js';
export {
  HNSW_SHARD_INDEX_NAMES,
  hnswShardIndexName,
  usableHnswShardIndexes,
  VECTOR_SHARDS,
  vectorShardOf,
} from './vector/vector-shards.js';
