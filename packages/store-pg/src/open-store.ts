import { knownModelDimensions, MemsvcError, systemClock } from '@memsvc/core';
import { sql } from 'kysely';
import { PgApiKeyStore } from './auth/pg-api-key-store.js';
import { PgOAuthAuthorizationStore } from './auth/pg-oauth-authorization-store.js';
import { PgOAuthClientStore } from './auth/pg-oauth-client-store.js';
import { PgOAuthRefreshStore } from './auth/pg-oauth-refresh-store.js';
import { PgOAuthStateStore } from './auth/pg-oauth-state-store.js';
import { PgOrganizationStore } from './auth/pg-organization-store.js';
import { PgSessionStore } from './auth/pg-session-store.js';
import { PgUserIdentityStore } from './auth/pg-user-identity-store.js';
import { FirstStatistics } from './connection/first-statistics.js';
import { openDatabase, type StoreConnection } from './connection/open-database.js';
import { PgliteAutovacuum } from './connection/pglite-autovacuum.js';
import { PgliteTemplates } from './connection/pglite-templates.js';
import { CompactingErasureStore } from './erasure/compacting-erasure-store.js';
import { PgErasureStore } from './erasure/pg-erasure-store.js';
import { PgliteCompaction } from './erasure/pglite-compaction.js';
import { PgExportStore } from './export/pg-export-store.js';
import { PgGrantStore } from './grants/pg-grant-store.js';
import { UuidV7Generator } from './ids/uuid-v7.js';
import { PgImportLedgerStore } from './import/pg-import-ledger-store.js';
import { PgImportStore } from './import/pg-import-store.js';
import { JobRuns } from './jobs/job-runs.js';
import { PgLifecycleStore } from './lifecycle/pg-lifecycle-store.js';
import { PgMemoryStore } from './memory/pg-memory-store.js';
import { searchSessionSettings } from './memory/write-transaction.js';
import type { MemsvcStore, OpenStoreOptions, StoreHealth } from './memsvc-store.js';
import { embeddedTemplateFingerprint, migrateToLatest } from './migrations/migrate.js';
import { PgOperationsReads } from './operations/pg-operations-reads.js';
import { PgRateLimitStore } from './rate-limit/pg-rate-limit-store.js';
import { PgReindexJobQueue } from './reindex/pg-reindex-jobs.js';
import { PgReindexStore } from './reindex/pg-reindex-store.js';
import { assertPrimaryCanHaveReplica, openReadReplica } from './replica/open-read-replica.js';
import { PgReviewStore } from './review/pg-review-store.js';
import { PgVectorSpace } from './vector/pg-vector-space.js';
import { detectVectorFeatures } from './vector/vector-features.js';

/**
 * Opens the database, checks that pgvector can be used, applies migrations (under an advisory
 * lock, so replicas may start together) and, when the dimensionality is already known from the
 * pin or the model, fixes the vector column and builds its HNSW index. A failure closes what
 * was opened and throws one clear MemsvcError.
 */
export async function openStore(options: OpenStoreOptions): Promise<MemsvcStore> {
  if (options.readDatabase) assertPrimaryCanHaveReplica(options.database);
  const migrate = options.migrate ?? true;
  const onUpkeepError = options.onUpkeepError ?? (() => undefined);
  const templates =
    migrate && options.pgliteTemplates
      ? new PgliteTemplates(options.pgliteTemplates.directory, embeddedTemplateFingerprint(), options.pgliteTemplates)
      : undefined;
  const connection = await openDatabase(options.database, {
    ...options.pool,
    sessionSettings: {
      ...searchSessionSettings(options.vector?.hnswEfSearch),
      // Read-your-writes on a read replica takes the primary's flushed WAL position after a write
      // as covering it: true only if COMMIT waits for the flush, whatever the server's default.
      ...(options.readDatabase ? { synchronous_commit: 'on' } : {}),
    },
    ...(options.tracer ? { tracer: options.tracer } : {}),
    ...(templates ? { pgliteTemplate: () => templates.read() } : {}),
  });
  try {
    await assertPgvectorAvailable(connection);
    if (migrate) await migrateToLatest(connection.db as never);
    if (templates) await keepAsTemplate(connection, templates, onUpkeepError);
    const vectorFeatures = await detectVectorFeatures(connection.db as never);
    const vector = options.vector ?? {};
    const vectorSpace = new PgVectorSpace(connection.db, { m: vector.hnswM, efConstruction: vector.hnswEfConstruction });
    const knownDimensions = vector.dimensions ?? (vector.model ? knownModelDimensions(vector.model) : undefined);
    if (knownDimensions !== undefined) await vectorSpace.ensure(knownDimensions, vector.model ?? null);

    const clock = options.clock ?? systemClock;
    const ids = options.ids ?? new UuidV7Generator();
    const firstStatistics = new FirstStatistics(connection.db, onUpkeepError);
    const memories = new PgMemoryStore({
      db: connection.db,
      firstStatistics,
      clock,
      ids,
      vectorSpace,
      vectorFeatures,
      hnswEfSearch: vector.hnswEfSearch,
    });
    const search = { efSearch: vector.hnswEfSearch, iterativeScan: vectorFeatures.iterativeScan };
    const readReplica = options.readDatabase
      ? await openReadReplica(
          {
            target: options.database,
            connection,
            memories,
            vectorFeatures,
            clock,
            ids,
            hnswEfSearch: vector.hnswEfSearch,
            pool: { ...options.pool, sessionSettings: searchSessionSettings(vector.hnswEfSearch) },
            tracer: options.tracer,
          },
          options.readDatabase,
        )
      : undefined;
    const autovacuum =
      connection.engine === 'pglite'
        ? new PgliteAutovacuum(connection.db, {
            intervalMs: options.autovacuum?.intervalMs ?? 0,
            onError: options.autovacuum?.onError ?? (() => undefined),
            timers: options.autovacuum?.timers,
            hosting: connection.hosting,
          })
        : undefined;
    autovacuum?.start();
    // Only a directory has files to hold erased text; PostgreSQL's are the operator's (docs/security.md).
    const compaction = connection.embeddedDirectory === undefined ? undefined : new PgliteCompaction(connection.db);
    const erasureOptions = { db: connection.db, clock, ids };
    return {
      connection,
      memories,
      readReplica,
      exports: new PgExportStore({ db: connection.db, clock }),
      imports: new PgImportStore({ db: connection.db, vectorSpace, firstStatistics }),
      importLedger: new PgImportLedgerStore(connection.db),
      vectorSpace,
      vectorFeatures,
      lifecycle: new PgLifecycleStore({ db: connection.db, clock, ids, search }),
      reindex: new PgReindexStore(connection.db, vectorSpace, clock, connection.engine),
      reindexJobs: new PgReindexJobQueue(connection.db, ids),
      review: new PgReviewStore({ db: connection.db, clock }),
      operations: new PgOperationsReads({ db: connection.db, clock }),
      jobRuns: new JobRuns(connection.db, connection.engine, clock, connection.hosting),
      apiKeys: new PgApiKeyStore({ db: connection.db, clock, ids }),
      organizations: new PgOrganizationStore({ db: connection.db, clock, ids }),
      grants: new PgGrantStore({ db: connection.db, clock, ids }),
      erasures: compaction ? new CompactingErasureStore({ ...erasureOptions, compaction }) : new PgErasureStore(erasureOptions),
      compaction,
      sessions: new PgSessionStore({ db: connection.db, clock, ids }),
      rateLimits: new PgRateLimitStore({ db: connection.db }),
      oauthStates: new PgOAuthStateStore({ db: connection.db, clock }),
      oauthClients: new PgOAuthClientStore({ db: connection.db, clock }),
      oauthAuthorizations: new PgOAuthAuthorizationStore({ db: connection.db, clock }),
      oauthRefresh: new PgOAuthRefreshStore({ db: connection.db, clock }),
      userIdentities: new PgUserIdentityStore({ db: connection.db }),
      autovacuum,
      health: () => checkHealth(connection),
      close: async () => {
        await autovacuum?.stop();
        await readReplica?.close();
        await memories.settle();
        await connection.close();
      },
    };
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw error;
  }
}

/**
 * A PGlite database that has just gone from initdb through the migrations, holding nothing yet,
 * becomes the template the next new one starts from. A template that failed to load, or cannot be
 * saved, is reported and otherwise ignored: it only ever costs the time it was meant to save.
 */
async function keepAsTemplate(connection: StoreConnection, templates: PgliteTemplates, onError: (error: unknown) => void): Promise<void> {
  const embedded = connection.embedded;
  if (!embedded) return;
  if (embedded.templateError !== undefined) {
    onError(
      new Error(`the embedded-database template ${templates.file} could not be loaded; it will be made again`, {
        cause: embedded.templateError,
      }),
    );
  }
  if (embedded.startedFrom !== 'initdb') return;
  try {
    // Flushed first, so a database loaded from the template has no WAL to replay.
    await sql`CHECKPOINT`.execute(connection.db);
    await templates.save(await embedded.dump());
  } catch (error) {
    onError(new Error(`the embedded-database template ${templates.file} could not be saved`, { cause: error }));
  }
}

async function assertPgvectorAvailable(connection: StoreConnection): Promise<void> {
  // Installed already (every database memsvc has opened before) answers from the catalog; only
  // otherwise is pg_available_extensions asked, which reads every extension's control file from
  // disk (40-60 ms on the embedded engine, on each start of a server or command).
  const installed = await sql`SELECT 1 FROM pg_extension WHERE extname = 'vector'`.execute(connection.db);
  if (installed.rows.length > 0) return;
  const available = await sql<{ name: string }>`SELECT name FROM pg_available_extensions WHERE name = 'vector'`.execute(connection.db);
  if (available.rows.length === 0) {
    throw new MemsvcError(
      'STORAGE_UNAVAILABLE',
      `the pgvector extension is not installed on ${connection.description}; install pgvector on the server ` +
        '(tooling/scripts/pg-local.sh does it for a development cluster) and start memsvc again',
      { database: connection.description },
    );
  }
}

async function checkHealth(connection: StoreConnection): Promise<StoreHealth> {
  try {
    const result = await sql<{ version: string | null }>`
      SELECT (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS version`.execute(connection.db);
    const version = result.rows[0]?.version ?? undefined;
    return {
      database: true,
      pgvector: version !== undefined,
      pgvectorVersion: version,
      error: version === undefined ? 'the vector extension is not installed in this database' : undefined,
    };
  } catch (error) {
    return { database: false, pgvector: false, pgvectorVersion: undefined, error: (error as Error).message };
  }
}
