import { type AccessService, createAccessService } from '@memsvc/access';
import { ApiKeyAuthenticator, mcpResourceOf, mintApiKey, SessionTokens } from '@memsvc/auth';
import { JWT_SECRET_MIN_LENGTH, type MemsvcConfig } from '@memsvc/config';
import type { Clock, Embedder, EmbeddingProviderName, Maintenance, MemoryEngine, Timers, Tracer } from '@memsvc/core';
import { systemClock } from '@memsvc/core';
import { OPENAI_BASE_URL, ResilientEmbedder } from '@memsvc/embeddings';
import type { MemsvcStore, ReplicaEvents } from '@memsvc/store-pg';
import { configuredEngine } from './configured-engine.js';
import { configuredEmbedder, openConfiguredStore, type StoreOverrides } from './configured-store-and-embedder.js';
import { createMaintenance } from './create-maintenance.js';
import { registerEmbeddingMetrics } from './embedding-metrics.js';
import { EmbeddingReachability } from './embedding-reachability.js';
import { type Logger, logTraceIds } from './logger.js';
import { createMetrics, type Metrics } from './metrics.js';
import { registerReplicaMetrics } from './replica-metrics.js';
import { ShutdownBudget } from './shutdown-budget.js';
import { type RunningJobs, type StartJobsOptions, startJobs } from './start-jobs.js';
import { systemTimers } from './system-timers.js';
import { openTracing, type TracingEvents } from './tracing/open-tracing.js';

export interface RuntimeOptions {
  /** PostgreSQL's application_name for the pool (`memsvc-server`, `memsvc-worker`, …). */
  readonly applicationName: string;
  readonly logger: Logger;
  /** Defaults to the system clock. */
  readonly clock?: Clock | undefined;
  /** What the embedding provider's rechecks wait with; defaults to the system's timers. */
  readonly timers?: Timers | undefined;
  /**
   * Whether the vector extension answers, for `memsvc_pgvector_ready`; by default the store's
   * own check. The server passes its health checker, so metrics and /health share one probe.
   */
  readonly readPgvector?: ((store: MemsvcStore) => Promise<boolean>) | undefined;
  /** A one-shot command (the CLI) opens one connection, or an empty stand-in for a dry run; a server neither. */
  readonly store?: StoreOverrides | undefined;
}

/** How long closing the runtime may take. */
export interface RuntimeCloseOptions {
  /** The whole close, spans flushed included; unbounded when absent (tests, tools that must finish). */
  readonly timeoutMs?: number | undefined;
}

/** The most the span flush is given out of a bounded close (the exporter's own shutdown bound). */
const TRACE_FLUSH_MS = 2_000;

/** memsvc, composed from a configuration: what every entry point (server, worker, CLI) runs on. */
export interface MemsvcRuntime {
  readonly config: MemsvcConfig;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly store: MemsvcStore;
  readonly metrics: Metrics;
  /**
   * Spans over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set, NO_TRACING otherwise. The engine,
   * the store and the jobs already use it; the server hands it to its HTTP app and tool pipeline.
   */
  readonly tracer: Tracer;
  readonly embedder: Embedder;
  /** The provider actually in use (`disabled` when the configured one could not be set up). */
  readonly provider: EmbeddingProviderName;
  /**
   * With an HTTP provider (ollama, openai): whether it can be reached, for the log and /health.
   * Nothing is asked until `start()` (the server and the worker call it); close() stops it.
   */
  readonly embeddingReachability: EmbeddingReachability | undefined;
  readonly engine: MemoryEngine;
  /** Who may do what: keys, organizations, identities, sessions and grants, for every surface (`@memsvc/access`). */
  readonly access: AccessService;
  readonly maintenance: Maintenance;
  /** Per-agent API keys: who a bearer token is (the standard profile's credentials, spec §5). */
  readonly apiKeys: ApiKeyAuthenticator;
  /**
   * Session JWTs (spec §5.3): on the standard profile with a JWT_SECRET; undefined otherwise, and
   * then no session is issued or accepted.
   */
  readonly sessions: SessionTokens | undefined;
  /** Starts the scheduled jobs and the reindex-job runner; close() stops them. At most once. */
  startJobs(options?: StartJobsOptions): RunningJobs;
  /**
   * Stops the jobs (after the runs in progress), closes the store, then flushes the spans (at most
   * 2 s). With `timeoutMs`, all of it within that: a step still waiting at its mark is given up
   * (logged), so a run or a query that hangs cannot hold the stop. Idempotent.
   */
  close(options?: RuntimeCloseOptions): Promise<void>;
}

/**
 * Opens (and migrates) the configured database and builds everything on it: metrics, the
 * embedder with its request metrics, the memory engine with the provider's fusion weights, and
 * the maintenance use-cases. Nothing runs until `startJobs`.
 */
export async function openRuntime(config: MemsvcConfig, options: RuntimeOptions): Promise<MemsvcRuntime> {
  const { logger } = options;
  const clock = options.clock ?? systemClock;
  const readPgvector = options.readPgvector ?? (async (open: MemsvcStore) => (await open.health()).pgvector);
  let opened: MemsvcStore | undefined;
  // Metrics first: tracing counts the spans it drops into them from the moment it starts.
  const metrics = createMetrics(config.profile, async () => opened !== undefined && readPgvector(opened));
  const tracing = await openTracing(config.telemetry, tracingEvents(metrics, logger));
  const { tracer } = tracing;
  logTraceIds(logger, tracer);
  const replicaEvents =
    config.database.read && options.store?.readReplica !== false
      ? readReplicaEvents(metrics, logger.child({ component: 'read-replica', replica: config.database.read.displayUrl }), () => opened)
      : undefined;
  // The store stamps rows and judges expiry by the same clock as the engine.
  const store = await openConfiguredStore(config, options.applicationName, logger, clock, tracer, replicaEvents, options.store).catch(
    async (error: unknown) => {
      await tracing.shutdown();
      throw error;
    },
  );
  opened = store;
  const { embedder, provider } = configuredEmbedder(config, logger, registerEmbeddingMetrics(metrics.registry));
  const embeddingReachability =
    embedder instanceof ResilientEmbedder && (provider === 'ollama' || provider === 'openai')
      ? new EmbeddingReachability({
          embedder,
          provider,
          model: embedder.model,
          url: provider === 'ollama' ? config.embedding.ollamaUrl : OPENAI_BASE_URL,
          logger: logger.child({ component: 'embeddings' }),
          timers: options.timers ?? systemTimers,
        })
      : undefined;
  const engine = configuredEngine(config, { store, embedder, provider, clock, tracer, logger });
  const access = createAccessService({ profile: config.profile, stores: store, engine, clock, mintKey: () => mintApiKey() });
  const maintenance = createMaintenance({ store, embedder, config, clock, metrics, tracer });
  const apiKeys = new ApiKeyAuthenticator({
    keys: store.apiKeys,
    clock,
    onError: (error) => logger.warn({ err: error }, "recording API keys' last use failed"),
  });
  const jwtSecret = config.auth.jwtSecret;
  const sessions =
    // A secret too short to sign with (only a warning while AUTH_REQUIRED=false) issues nothing.
    config.profile === 'standard' && jwtSecret !== undefined && jwtSecret.reveal().length >= JWT_SECRET_MIN_LENGTH
      ? new SessionTokens({
          secret: jwtSecret,
          expiresInSeconds: config.auth.jwtExpiresInSeconds,
          sessions: store.sessions,
          clock,
          // OAuth access tokens are for the MCP resource at the public base URL (docs/security.md).
          resourceAudience: config.auth.oauthRedirectBaseUrl ? mcpResourceOf(config.auth.oauthRedirectBaseUrl) : undefined,
        })
      : undefined;

  let jobs: RunningJobs | undefined;
  let closing: Promise<void> | undefined;
  return {
    config,
    logger,
    clock,
    store,
    metrics,
    tracer,
    embedder,
    provider,
    embeddingReachability,
    engine,
    access,
    maintenance,
    apiKeys,
    sessions,
    startJobs: (jobOptions = {}) => {
      if (closing) throw new Error('the runtime is closed');
      if (jobs) throw new Error('the jobs of this runtime are already running');
      jobs = startJobs({
        config,
        store,
        maintenance,
        metrics,
        tracer,
        logger: logger.child({ component: 'jobs' }),
        ...jobOptions,
      });
      return jobs;
    },
    close: (closeOptions = {}) => {
      closing ??= (async () => {
        // What is left of a stop that overran its earlier marks may be nothing: each step then gets a moment.
        const timeoutMs = closeOptions.timeoutMs === undefined ? undefined : Math.max(1, closeOptions.timeoutMs);
        const budget = timeoutMs === undefined ? undefined : new ShutdownBudget(timeoutMs);
        // The spans go last, in the time kept for them; the stores have the rest.
        const storesBy = timeoutMs === undefined ? 1 : 1 - Math.min(TRACE_FLUSH_MS, timeoutMs / 2) / timeoutMs;
        const step = async (name: string, work: () => Promise<unknown>, by: number) => {
          if (!budget) return void (await work());
          // Given up, not cancelled: a run left behind ends with the process; its lock or lease is then released or expires.
          if (!(await budget.settlesBy(work(), by)))
            logger.warn({ step: name, timeoutMs }, 'shutdown: gave up waiting (MEMSVC_SHUTDOWN_TIMEOUT_MS)');
        };
        try {
          embeddingReachability?.stop();
          await step('jobs', async () => jobs?.stop(), storesBy);
          await step('api-key last use', () => apiKeys.close(), storesBy);
        } finally {
          try {
            await step('database', () => store.close(), storesBy);
          } finally {
            await step('trace flush', () => tracing.shutdown(), 1);
          }
        }
      })();
      return closing;
    },
  };
}

/** The read replica's reads counted, and its changes of state logged (once per change; the logger names it, password masked). */
function readReplicaEvents(metrics: Metrics, logger: Logger, store: () => MemsvcStore | undefined): ReplicaEvents {
  return {
    onRead: registerReplicaMetrics(metrics.registry, () => store()?.readReplica?.status()),
    onWarning: (message, details) => logger.warn(details, message),
    onRecovered: (message, details) => logger.info(details, message),
  };
}

/** Dropped spans counted; the collector failing logged once per outage, with no span data in the line. */
function tracingEvents(metrics: Metrics, logger: Logger): TracingEvents {
  return {
    onDropped: (count, reason) => metrics.traceSpansDropped.inc({ reason }, count),
    onExportFailing: (error) =>
      logger.warn(
        { error: error?.message },
        'trace export to the OTLP collector failed: spans are dropped (memsvc_trace_spans_dropped_total) until it answers again',
      ),
    onExportRecovered: () => logger.info('trace export to the OTLP collector works again'),
  };
}
