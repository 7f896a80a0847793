import { type DatabaseTarget, describeDatabaseTarget, parseDatabaseUrl } from '@memsvc/access';
import { type Clock, type IdGenerator, MemsvcError, type Timers, type Tracer } from '@memsvc/core';
import type { Kysely } from 'kysely';
import { type OpenDatabaseOptions, openDatabase, type StoreConnection } from '../connection/open-database.js';
import { PgMemoryStore } from '../memory/pg-memory-store.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { PgVectorSpace } from '../vector/pg-vector-space.js';
import type { VectorFeatures } from '../vector/vector-features.js';
import { forwardClock } from './forward-clock.js';
import { RecentWrites } from './recent-writes.js';
import { ReplicaMonitor } from './replica-monitor.js';
import { ReplicaRoutedMemoryStore } from './replica-routed-memory-store.js';
import type { ReplicaEvents, ReplicaStatus } from './replica-status.js';
import { readStandbyReport, readSystemIdentifier } from './standby-queries.js';
import { isUnreachable } from './unreachable-errors.js';

const HOST_TIMERS: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** DATABASE_READ_MAX_LAG_MS's default. */
export const DEFAULT_READ_MAX_LAG_MS = 10_000;

/** How long a standby's answer is waited for by default (ReadReplicaOptions.answerTimeoutMs). */
const DEFAULT_ANSWER_TIMEOUT_MS = 5_000;

/** A hot standby for the read tools (DATABASE_READ_URL). */
export interface ReadReplicaOptions {
  /** A `postgres://` URL of a streaming-replication hot standby of the primary, or its parsed target. */
  readonly database: string | DatabaseTarget;
  /** A standby further behind than this serves no read (default 10 s). */
  readonly maxLagMs?: number;
  /** How often the standby is checked (default: a quarter of maxLagMs, from 100 ms to 1 s). */
  readonly checkIntervalMs?: number;
  /** How long a connection to the standby may take before the attempt fails (default 2 s; the primary answers meanwhile). */
  readonly connectTimeoutMs?: number;
  /**
   * How long a read or a check on the standby may wait for its answer (default 5 s): past it a
   * read fails over to the primary and the standby counts as not answering until a check finds
   * it back. A frozen standby (a paused VM or process, a path that drops packets) holds nothing.
   */
  readonly answerTimeoutMs?: number;
  /**
   * The host's timers unless a test steps its own. With the host's, time elapses as the larger
   * step of the host's monotonic and wall clocks (forwardClock); with a test's, on the store's
   * clock, which the test moves with them.
   */
  readonly timers?: Timers;
  /** Metrics and log lines: every routed read, and each change of the standby's state. */
  readonly events?: ReplicaEvents;
}

/** An open read replica: the routed memory store and what the host monitors of it. */
export interface ReadReplica {
  /** The MemoryStore for the engine: the read tools' reads on the standby, everything else on the primary. */
  readonly memories: ReplicaRoutedMemoryStore;
  /** Printable location, password masked. */
  readonly description: string;
  /** The standby as last checked. */
  status(): ReplicaStatus;
  /** Checks the standby now, as the monitor does every interval. */
  check(): Promise<ReplicaStatus>;
  /** Stops the checks and closes the standby's pool and the monitor's connection (not the primary's pool). Idempotent. */
  close(): Promise<void>;
}

/** What the replica shares with the primary's store. */
export interface PrimaryStoreParts {
  /** Where the primary is (DATABASE_URL): the monitor opens its own connection there. */
  readonly target: string | DatabaseTarget;
  readonly connection: StoreConnection;
  readonly memories: PgMemoryStore;
  readonly vectorFeatures: VectorFeatures;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly hnswEfSearch: number | undefined;
  /** The primary's pool options and session settings, applied to the standby's pool too. */
  readonly pool: OpenDatabaseOptions;
  readonly tracer: Tracer | undefined;
}

/**
 * Opens DATABASE_READ_URL beside an open primary. At boot the standby must be one: a server that
 * answers `pg_is_in_recovery() = false` (a primary, maybe DATABASE_URL's own) or that replicates
 * another cluster (a different system identifier) is a configuration error naming the variable,
 * and so is one that answers with a refusal (a wrong password, no such database). One that does
 * not answer at all is not fatal: reads go to the primary, with a warning, until a check finds
 * the standby ready — a standby restarting must not keep servers from starting.
 */
export async function openReadReplica(primary: PrimaryStoreParts, options: ReadReplicaOptions): Promise<ReadReplica> {
  if (primary.connection.engine !== 'postgres') throw notPostgresPrimary();
  const target = resolveTarget(options.database);
  const description = describeDatabaseTarget(target);
  const answerTimeoutMs = options.answerTimeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS;
  const connection = await openDatabase(target, {
    ...primary.pool,
    checkOnOpen: false,
    connectTimeoutMs: options.connectTimeoutMs ?? 2_000,
    queryTimeoutMs: answerTimeoutMs,
    ...(primary.tracer ? { tracer: primary.tracer } : {}),
  });
  // The monitor's own connection to the primary, outside the primary's pool: when every pooled
  // connection is busy (the moment reads most need the standby), the check of the primary's
  // position does not wait in that queue, so the lag stays measured and the standby serving.
  const monitorConnection = await openDatabase(primary.target, {
    ...primary.pool,
    maxConnections: 1,
    applicationName: `${primary.pool.applicationName ?? 'memsvc'} (replica monitor)`,
    sessionSettings: {},
    checkOnOpen: false,
    connectTimeoutMs: options.connectTimeoutMs ?? 2_000,
    queryTimeoutMs: answerTimeoutMs,
  });
  const closeAll = () => Promise.all([connection.close(), monitorConnection.close()]).then(() => undefined);
  let verifiedAtOpen = false;
  try {
    await checkIsStandbyOf(primary.connection.db, connection.db, description);
    verifiedAtOpen = true;
  } catch (error) {
    // One that does not answer is not fatal: the monitor's first check reports it (a warning)
    // and the checks go on until it answers.
    if (error instanceof MemsvcError || !isUnreachable(error)) {
      await closeAll().catch(() => undefined);
      throw error instanceof MemsvcError
        ? error
        : readUrlError(`cannot be used (${description}): ${(error as Error).message}`, { url: description }, error);
    }
  }

  const maxLagMs = options.maxLagMs ?? DEFAULT_READ_MAX_LAG_MS;
  const events = options.events ?? {};
  const writes = new RecentWrites();
  const monitor = new ReplicaMonitor({
    primary: monitorConnection.db,
    standby: connection.db,
    clock: primary.clock,
    timers: options.timers ?? HOST_TIMERS,
    elapsedMs: options.timers
      ? () => primary.clock.now().getTime()
      : forwardClock(
          () => performance.now(),
          () => Date.now(),
        ),
    intervalMs: options.checkIntervalMs ?? Math.min(1_000, Math.max(100, Math.floor(maxLagMs / 4))),
    maxLagMs,
    checkTimeoutMs: answerTimeoutMs,
    writes,
    events,
    // Whatever answers at DATABASE_READ_URL after a silence may not be the server checked at
    // boot (or none was): it serves only once it proves to replicate this primary's cluster.
    verifyStandby: async () => {
      const problem = await anotherClusterProblem(monitorConnection.db, connection.db);
      return problem && `DATABASE_READ_URL names ${problem}`;
    },
    verifiedAtOpen,
  });
  const replicaMemories = new PgMemoryStore({
    db: connection.db,
    clock: primary.clock,
    ids: primary.ids,
    // Its own view of the vector column, read on the standby (it never creates anything there).
    vectorSpace: new PgVectorSpace(connection.db),
    vectorFeatures: primary.vectorFeatures,
    hnswEfSearch: primary.hnswEfSearch,
  });
  const memories = new ReplicaRoutedMemoryStore({ primary: primary.memories, replica: replicaMemories, monitor, writes, events });
  await monitor.check();
  monitor.start();
  let closing: Promise<void> | undefined;
  return {
    memories,
    description,
    status: () => monitor.status(),
    check: () => monitor.check(),
    close: () => {
      closing ??= monitor.stop().finally(closeAll);
      return closing;
    },
  };
}

/**
 * Refuses a read replica beside an embedded primary before anything is opened (the store
 * would otherwise open and migrate PGlite first, only to refuse it then).
 */
export function assertPrimaryCanHaveReplica(database: string | DatabaseTarget): void {
  const parsed = typeof database === 'string' ? parseDatabaseUrl(database) : { ok: true as const, target: database };
  if (parsed.ok && parsed.target.engine === 'pglite') throw notPostgresPrimary();
}

function notPostgresPrimary(): MemsvcError {
  return readUrlError('needs DATABASE_URL to be PostgreSQL: a read replica is a hot standby of a PostgreSQL primary');
}

async function checkIsStandbyOf(primary: Kysely<MemsvcDatabase>, standby: Kysely<MemsvcDatabase>, description: string): Promise<void> {
  const report = await readStandbyReport(standby);
  if (!report.inRecovery) {
    throw readUrlError(
      `names a server that is not a hot standby (${description}): pg_is_in_recovery() is false there, so it is a primary — ` +
        "perhaps DATABASE_URL's own server, or a standby since promoted — and reads from it would miss the primary's writes. " +
        'Name a streaming-replication standby of DATABASE_URL, or unset DATABASE_READ_URL',
      { url: description },
    );
  }
  const foreign = await anotherClusterProblem(primary, standby);
  if (foreign) throw readUrlError(`names ${foreign} (${description})`, { url: description });
}

/** Why the standby is not a replica of the primary's cluster (their system identifiers differ), or undefined. */
async function anotherClusterProblem(primary: Kysely<MemsvcDatabase>, standby: Kysely<MemsvcDatabase>): Promise<string | undefined> {
  const [own, primarys] = await Promise.all([readSystemIdentifier(standby), readSystemIdentifier(primary)]);
  if (own === undefined || primarys === undefined || own === primarys) return undefined;
  return `a standby of another cluster: its system identifier is ${own}, DATABASE_URL's is ${primarys}`;
}

function resolveTarget(database: string | DatabaseTarget): DatabaseTarget {
  if (typeof database !== 'string') {
    if (database.engine !== 'postgres') throw readUrlError('must be a postgres:// URL: an embedded pglite:// database has no replicas');
    return database;
  }
  const parsed = parseDatabaseUrl(database);
  if (!parsed.ok) throw readUrlError(`is invalid: ${parsed.reason}`);
  return resolveTarget(parsed.target);
}

function readUrlError(message: string, data: Record<string, unknown> = {}, cause?: unknown): MemsvcError {
  return new MemsvcError('INVALID_CONFIG', `DATABASE_READ_URL ${message}`, { variable: 'DATABASE_READ_URL', ...data }, { cause });
}
