import type { MemsvcStore, ReadReplica } from '@memsvc/store-pg';
import type { EmbeddingsIndicator } from '../embedding-reachability.js';

/** An indicator is up or down; nothing in between. */
type IndicatorStatus = 'up' | 'down';

/** The body of `/health` and `/health/ready` (spec §4.1: three indicators, both profiles). */
export interface HealthReport {
  readonly status: 'ok' | 'error';
  readonly profile: string;
  readonly indicators: {
    readonly 'memory-store': {
      status: IndicatorStatus;
      pid: number;
      uptimeSeconds: number;
      heapUsedBytes: number;
      heapTotalBytes: number;
      rssBytes: number;
    };
    readonly database: { status: IndicatorStatus; engine: string; latencyMs: number; error?: string };
    readonly pgvector: { status: IndicatorStatus; version?: string; error?: string };
    /**
     * Only with DATABASE_READ_URL (not in spec §4.1, which leaves the body's shape to us): up
     * while the standby serves reads. Down never fails the report: the primary answers the reads.
     */
    readonly 'database-replica'?: ReplicaIndicator;
    /**
     * Only with an HTTP embedding provider (ollama, openai), also ours: down while it cannot be
     * reached, when writes are stored without vectors. Down never fails the report: memsvc works
     * on, by full text.
     */
    readonly embeddings?: EmbeddingsIndicator;
  };
}

/** The read replica as its monitor last checked it (every second or so; a probe does not query it again). */
interface ReplicaIndicator {
  status: IndicatorStatus;
  /** ready, lagging, unavailable or promoted. */
  state: string;
  lagSeconds?: number;
  error?: string;
}

const MEMORY_FIGURES_MAX_AGE_MS = 1000;

/**
 * Health checks that are honest (each report asks the database) and cheap (one round trip).
 * Concurrent requests share the check in flight, so 32 probes at once cost one query, not 32.
 * The server's `/health` and the dashboard's operations page show the same report.
 */
export class HealthChecker {
  #inFlight: Promise<HealthReport> | undefined;
  #memory: { readAt: number; usage: NodeJS.MemoryUsage } | undefined;

  constructor(
    private readonly store: MemsvcStore,
    private readonly profile: string,
    /** The embedding provider's indicator (openRuntime's embeddingReachability), when it has one. */
    private readonly embeddings?: () => EmbeddingsIndicator | undefined,
  ) {}

  /** The report: one database round trip, shared with the checks already in flight. */
  check(): Promise<HealthReport> {
    this.#inFlight ??= this.run().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  /**
   * The process's memory figures, read at most once a second: reading them is a /proc read,
   * which under a stream of probes was 8% of the server's CPU for /health. The database is
   * still asked on every check.
   */
  private memoryUsage(): NodeJS.MemoryUsage {
    const now = performance.now();
    if (!this.#memory || now - this.#memory.readAt >= MEMORY_FIGURES_MAX_AGE_MS)
      this.#memory = { readAt: now, usage: process.memoryUsage() };
    return this.#memory.usage;
  }

  private async run(): Promise<HealthReport> {
    const started = performance.now();
    const db = await this.store.health();
    const latencyMs = Math.round((performance.now() - started) * 100) / 100;
    const memory = this.memoryUsage();
    const databaseUp = db.database;
    const pgvectorUp = db.pgvector;
    return {
      status: databaseUp && pgvectorUp ? 'ok' : 'error',
      profile: this.profile,
      indicators: {
        'memory-store': {
          status: 'up',
          pid: process.pid,
          uptimeSeconds: Math.round(process.uptime()),
          heapUsedBytes: memory.heapUsed,
          heapTotalBytes: memory.heapTotal,
          rssBytes: memory.rss,
        },
        database: {
          status: databaseUp ? 'up' : 'down',
          engine: this.store.connection.engine,
          latencyMs,
          ...(databaseUp ? {} : { error: 'database query failed' }),
        },
        pgvector: pgvectorUp
          ? { status: 'up', version: db.pgvectorVersion }
          : { status: 'down', error: databaseUp ? 'the vector extension is not installed' : 'database unreachable' },
        ...(this.store.readReplica ? { 'database-replica': replicaIndicator(this.store.readReplica) } : {}),
        ...withEmbeddings(this.embeddings?.()),
      },
    };
  }
}

function withEmbeddings(indicator: EmbeddingsIndicator | undefined): { embeddings?: EmbeddingsIndicator } {
  return indicator ? { embeddings: indicator } : {};
}

/** Fixed words per state: /health is public, and the log has the details (addresses, driver messages). */
const REPLICA_ERRORS: Readonly<Record<string, string>> = {
  lagging: 'further behind the primary than DATABASE_READ_MAX_LAG_MS',
  unavailable: 'not answering',
  promoted: 'no longer a standby (promoted)',
};

function replicaIndicator(replica: ReadReplica): ReplicaIndicator {
  const { state, lagSeconds } = replica.status();
  const error = REPLICA_ERRORS[state];
  return {
    status: state === 'ready' ? 'up' : 'down',
    state,
    ...(lagSeconds === undefined ? {} : { lagSeconds: Math.round(lagSeconds * 1000) / 1000 }),
    ...(error === undefined ? {} : { error }),
  };
}
