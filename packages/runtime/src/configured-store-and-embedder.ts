import type { DatabaseTarget } from '@memsvc/access';
import type { MemsvcConfig } from '@memsvc/config';
import type { Clock, Tracer } from '@memsvc/core';
import { createEmbedder, type EmbedderChoice, type EmbeddingRequestEvent, providerInUse } from '@memsvc/embeddings';
import { type MemsvcStore, openStore, PGLITE_AUTOVACUUM_INTERVAL_MS, type ReplicaEvents } from '@memsvc/store-pg';
import type { Logger } from './logger.js';

/** What a one-shot command opens differently from a server: one connection, or another database. */
export interface StoreOverrides {
  /** A command holds one connection; a server keeps the pool's default. */
  readonly maxConnections?: number | undefined;
  /** The database to open instead of the configured one (a dry run's empty stand-in). */
  readonly database?: DatabaseTarget | undefined;
  /** False: no DATABASE_READ_URL standby, every read on the primary (an operator's command reads what it just wrote). */
  readonly readReplica?: boolean | undefined;
}

/**
 * Opens (and migrates) the database a configuration names, as a server or a worker does;
 * statements in a span are spans. The read replica (DATABASE_READ_URL) is opened only when
 * `replicaEvents` are given: a run without read tools (a reindex) has no use for it.
 */
export function openConfiguredStore(
  config: MemsvcConfig,
  applicationName: string,
  logger: Logger,
  clock?: Clock,
  tracer?: Tracer,
  replicaEvents?: ReplicaEvents,
  overrides: StoreOverrides = {},
): Promise<MemsvcStore> {
  const read = config.database.read;
  // With no vectors to generate (openai without a key: spec §7, no error), the database is not
  // held to the model's size at boot: a database of another model's vectors still opens, and
  // recall finds its memories by full text. A VECTOR_DIMENSIONS pin is still checked.
  const generatesVectors = providerInUse(config.embedding) !== 'disabled';
  return openStore({
    database: overrides.database ?? config.database.target,
    ...(clock ? { clock } : {}),
    ...(tracer ? { tracer } : {}),
    vector: {
      dimensions: config.embedding.dimensions,
      model: generatesVectors ? config.embedding.model : undefined,
      hnswM: config.vectorIndex.hnswM,
      hnswEfConstruction: config.vectorIndex.hnswEfConstruction,
      hnswEfSearch: config.vectorIndex.hnswEfSearch,
    },
    pool: {
      applicationName,
      ...(overrides.maxConnections ? { maxConnections: overrides.maxConnections } : {}),
      onIdleError: (error) => logger.warn({ err: error }, 'idle database connection failed'),
    },
    // A server or worker runs for days: on PGlite, nothing else would ever vacuum or analyse.
    autovacuum: {
      intervalMs: PGLITE_AUTOVACUUM_INTERVAL_MS,
      onError: (error) => logger.warn({ err: error }, 'PGlite autovacuum pass failed'),
    },
    // A new embedded database starts from the template kept there (MEMSVC_CACHE_DIR).
    ...(config.database.embeddedTemplates ? { pgliteTemplates: config.database.embeddedTemplates } : {}),
    onUpkeepError: (error) => logger.warn({ err: error }, 'database upkeep failed (a first ANALYZE, or the embedded-database template)'),
    ...(read && replicaEvents ? { readDatabase: { database: read.target, maxLagMs: read.maxLagMs, events: replicaEvents } } : {}),
  });
}

/** The configured embedding provider, with a warning logged for each failed request. */
export function configuredEmbedder(
  config: MemsvcConfig,
  logger: Logger,
  onRequest?: (event: EmbeddingRequestEvent) => void,
): EmbedderChoice {
  const created = createEmbedder({
    provider: config.embedding.provider,
    model: config.embedding.model,
    dimensions: config.embedding.dimensions,
    ollamaUrl: config.embedding.ollamaUrl,
    openaiApiKey: config.embedding.openaiApiKey,
    onRequest: (event) => {
      onRequest?.(event);
      // At most `failureThreshold` of these per cooldown: then the circuit opens and requests
      // are refused without a call (counted, not logged).
      if (event.status === 'error') {
        logger.warn(
          { provider: event.provider, attempts: event.attempts, error: event.error },
          'embedding provider failed: storing without a vector',
        );
      }
    },
  });
  if (created.provider !== config.embedding.provider) {
    logger.info({ configured: config.embedding.provider, provider: created.provider }, 'embeddings disabled');
  }
  return created;
}
