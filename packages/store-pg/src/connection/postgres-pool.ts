import { redactDatabaseUrl } from '@memsvc/access';
import { MemsvcError } from '@memsvc/core';
import pg from 'pg';
import { DEFAULT_POOL_QUEUE_TIMEOUT_MS, PoolAdmission } from './pool-admission.js';
import { memsvcTypeParsers } from './type-parsers.js';

export interface PostgresPoolOptions {
  /** Most connections the pool opens (default 10). */
  readonly maxConnections?: number;
  /** How long a new connection may take before the attempt fails (default 5 s). */
  readonly connectTimeoutMs?: number;
  /**
   * How long a call may wait for a free connection while all of them are in use (default 30 s),
   * apart from `connectTimeoutMs`: a busy pool is not a dead server. Past it the call fails with
   * a retryable STORAGE_UNAVAILABLE.
   */
  readonly queueTimeoutMs?: number;
  /** Shown in pg_stat_activity. */
  readonly applicationName?: string;
  /** Told about errors on idle connections (a restarted server, a dropped socket). */
  readonly onIdleError?: (error: Error) => void;
  /**
   * Prove the server answers before returning (default true). A read replica's pool skips it:
   * a standby that is down at boot is not fatal, and its first check classifies the failure.
   */
  readonly checkOnOpen?: boolean;
  /**
   * How long a query may wait for the server's answer before it fails (node-postgres'
   * `query_timeout`; default: no limit). A read replica's pool sets it, with TCP keep-alive: a
   * standby that froze (a paused VM, a stopped process, a path that drops packets) must fail its
   * reads, which the primary then answers, not hold them until TCP gives up.
   */
  readonly queryTimeoutMs?: number;
}

/**
 * A node-postgres pool that has proven it can reach the server: a bad host, port, password or
 * database fails here with one clear DATABASE_UNREACHABLE error, not at the first query. Calls
 * wait for a connection in a PoolAdmission queue, so the connect timeout bounds only opening one.
 */
export async function openPostgresPool(url: string, options: PostgresPoolOptions = {}): Promise<PoolAdmission> {
  const maxConnections = options.maxConnections ?? 10;
  const pool = new pg.Pool({
    connectionString: url,
    max: maxConnections,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    application_name: options.applicationName ?? 'memsvc',
    types: memsvcTypeParsers,
    ...(options.queryTimeoutMs === undefined ? {} : { query_timeout: options.queryTimeoutMs, keepAlive: true }),
  });
  // Without a listener, an error on an idle client (say, the server restarting) would be an
  // unhandled 'error' event and take the whole process down. The pool replaces the client.
  pool.on('error', (error) => options.onIdleError?.(error));
  // The same for a client that is checked out but between queries when its connection breaks
  // (a transaction or a held job lock during a restart): the query in flight, or the next one,
  // fails with the error, and the pool discards the client when it is released.
  pool.on('connect', (client) => {
    client.on('error', (error) => options.onIdleError?.(error));
  });
  const admission = new PoolAdmission(pool, {
    maxConnections,
    queueTimeoutMs: options.queueTimeoutMs ?? DEFAULT_POOL_QUEUE_TIMEOUT_MS,
  });
  if (options.checkOnOpen === false) return admission;
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new MemsvcError(
      'DATABASE_UNREACHABLE',
      `cannot reach PostgreSQL at ${redactDatabaseUrl(url)}: ${reason || (error as { code?: string }).code || 'connection failed'}`,
      { url: redactDatabaseUrl(url) },
      { cause: error },
    );
  }
  return admission;
}
