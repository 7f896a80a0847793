import { type DatabaseTarget, describeDatabaseTarget, parseDatabaseUrl } from '@memsvc/access';
import { MemsvcError, NO_TRACING, type Tracer } from '@memsvc/core';
import { CompiledQuery, type DatabaseConnection, Kysely, PostgresDialect, type PostgresPool } from 'kysely';
import pg from 'pg';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import type { OpenPglite, PgliteTemplateSource } from './pglite-instance.js';
import { openPostgresPool, type PostgresPoolOptions } from './postgres-pool.js';
import { tracedDialect } from './traced-dialect.js';
import { memsvcTypeParsers } from './type-parsers.js';

export type DatabaseEngine = 'postgres' | 'pglite';

/** An open database: a Kysely instance plus what it takes to close it cleanly. */
export interface StoreConnection {
  readonly db: Kysely<MemsvcDatabase>;
  readonly engine: DatabaseEngine;
  /** Printable location, password masked. */
  readonly description: string;
  /** Closes the pool, then the embedded database and its lock. Idempotent. */
  close(): Promise<void>;
  /**
   * PGlite only: whether this process hosts the embedded database now (a directory is shared by
   * the machine's memsvc processes, one of which hosts it; shared-pglite.ts). Background jobs run
   * in the host.
   */
  readonly hosting?: () => boolean;
  /**
   * PGlite only: the directory `pglite://<directory>` keeps the database in, absent for
   * `pglite://memory` (which has no files); an erasure compacts its files (pglite-compaction.ts).
   */
  readonly embeddedDirectory?: string;
  /** PGlite only: how the database's files came to be, and a tarball of them now. */
  readonly embedded?: {
    readonly startedFrom: OpenPglite['startedFrom'];
    readonly templateError?: unknown;
    dump(): Promise<Blob>;
  };
}

export interface OpenDatabaseOptions extends PostgresPoolOptions {
  /**
   * Settings every connection applies once, when it is first used (`set_config(name, value,
   * false)`): the HNSW search settings, so a search is one statement with no transaction
   * around it to carry them.
   */
  readonly sessionSettings?: Readonly<Record<string, string>>;
  /** Statements become spans inside the span in progress (tracedDialect); default: none. */
  readonly tracer?: Tracer;
  /** PGlite only: a new database starts from this tarball when it gives one (PgliteTemplates). */
  readonly pgliteTemplate?: PgliteTemplateSource;
  /** A PGlite directory: how long a call waits for a process to serve it (default 15 s; shared-pglite.ts). */
  readonly pgliteAttachPatienceMs?: number;
}

/**
 * Opens the database a `DATABASE_URL` names. PostgreSQL and PGlite go through the same Kysely
 * `PostgresDialect` — a `pg.Pool` for PostgreSQL, the same pool class over PGlite's in-process
 * connection for the embedded engine — so every query in memsvc has one code path.
 */
export async function openDatabase(target: DatabaseTarget | string, options: OpenDatabaseOptions = {}): Promise<StoreConnection> {
  const resolved = typeof target === 'string' ? parseTarget(target) : target;
  const description = describeDatabaseTarget(resolved);

  if (resolved.engine === 'postgres') {
    const db = kyselyOver(await openPostgresPool(resolved.url.reveal(), options), 'postgres', options);
    return { db, engine: 'postgres', description, close: once(() => db.destroy()) };
  }

  if (resolved.storage === 'directory') return openSharedDirectory(resolved.directory, description, options);

  // Loaded on demand: a server on PostgreSQL never pays for parsing the embedded engine.
  const [{ openPglite, yieldToEventLoopBeforeEachStatement }, { createPgConfig }] = await Promise.all([
    import('./embedded-engine.js'),
    import('@electric-sql/pglite/node-postgres'),
  ]);
  const embedded = await openPglite('memory', options.pgliteTemplate);
  yieldToEventLoopBeforeEachStatement(embedded.pglite);
  // PGlite is one connection; its pool config has size 1, so concurrent transactions queue.
  const db = kyselyOver(new pg.Pool({ ...createPgConfig(embedded.pglite), types: memsvcTypeParsers }), 'pglite', options);
  return {
    db,
    engine: 'pglite',
    description,
    hosting: () => true,
    embedded: embeddedParts(embedded),
    close: once(async () => {
      try {
        await db.destroy();
      } finally {
        await embedded.close();
      }
    }),
  };
}

/**
 * A PGlite directory, shared by every memsvc process of the machine's user (shared-pglite.ts):
 * this process reaches it through the directory's socket like every other, and hosts it when no
 * other process does.
 */
async function openSharedDirectory(directory: string, description: string, options: OpenDatabaseOptions): Promise<StoreConnection> {
  const { openSharedPglite } = await import('./embedded-engine.js');
  const shared = await openSharedPglite(directory, { template: options.pgliteTemplate, attachPatienceMs: options.pgliteAttachPatienceMs });
  const db = kyselyOver(shared.pool, 'pglite', options);
  const hosted = shared.hosted();
  return {
    db,
    engine: 'pglite',
    description,
    embeddedDirectory: directory,
    hosting: shared.isHost,
    ...(hosted ? { embedded: embeddedParts(hosted) } : {}),
    close: once(async () => {
      try {
        await db.destroy();
      } finally {
        await shared.close();
      }
    }),
  };
}

/** Kysely over a pool, every statement traced, each new connection given the session settings. */
function kyselyOver(pool: PostgresPool, engine: DatabaseEngine, options: OpenDatabaseOptions): Kysely<MemsvcDatabase> {
  return new Kysely<MemsvcDatabase>({
    dialect: tracedDialect(
      new PostgresDialect({ pool, onCreateConnection: applySettings(options.sessionSettings) }),
      options.tracer ?? NO_TRACING,
      engine,
    ),
  });
}

/** What a StoreConnection tells of the embedded database this process runs. */
function embeddedParts(open: OpenPglite): NonNullable<StoreConnection['embedded']> {
  return {
    startedFrom: open.startedFrom,
    ...(open.templateError === undefined ? {} : { templateError: open.templateError }),
    dump: () => open.pglite.dumpDataDir('none'),
  };
}

/** The hook that applies the session settings to each new connection, in one round trip. */
function applySettings(settings: Readonly<Record<string, string>> | undefined) {
  const entries = Object.entries(settings ?? {});
  if (entries.length === 0) return undefined;
  const calls = entries.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, false)`).join(', ');
  const query = CompiledQuery.raw(`SELECT ${calls}`, entries.flat());
  return async (connection: DatabaseConnection) => {
    await connection.executeQuery(query);
  };
}

function parseTarget(url: string): DatabaseTarget {
  const parsed = parseDatabaseUrl(url);
  if (!parsed.ok) throw new MemsvcError('INVALID_CONFIG', `DATABASE_URL: ${parsed.reason}`, { variable: 'DATABASE_URL' });
  return parsed.target;
}

function once(action: () => Promise<void>): () => Promise<void> {
  let pending: Promise<void> | undefined;
  return () => {
    pending ??= action();
    return pending;
  };
}
