import { MemsvcError } from '@memsvc/core';
import { type Kysely, type Migration, type MigrationProvider, type MigrationResultSet, Migrator, sql } from 'kysely';
import { embeddedSchemaFingerprint } from '../connection/pglite-templates.js';
import { VECTOR_SHARDS } from '../vector/vector-shards.js';
import { up as initialSchema } from './0001-initial-schema.js';
import { up as memoriesFillfactor } from './0002-memories-fillfactor.js';
import { up as importanceIndex } from './0003-importance-index.js';
import { up as searchContext } from './0004-search-context.js';
import { up as jobBookkeeping } from './0005-job-bookkeeping.js';
import { up as vectorShards } from './0006-vector-shards.js';
import { up as fullTextNoPendingList } from './0007-full-text-no-pending-list.js';
import { up as lexicalIndex } from './0008-lexical-index.js';
import { up as sessionsByUser } from './0009-sessions-by-user.js';
import { up as unloggedRateLimitCounters } from './0010-unlogged-rate-limit-counters.js';
import { up as importLedger } from './0011-import-ledger.js';
import { up as bulkLexicalIndex } from './0012-bulk-lexical-index.js';
import { up as markerIndexes } from './0013-marker-indexes.js';
import { up as sessionsByApiKey } from './0014-sessions-by-api-key.js';
import { up as stripedLexicalStatistics } from './0015-striped-lexical-statistics.js';
import { up as apiKeyParents } from './0016-api-key-parents.js';
import { up as keysMadeInSessions } from './0017-keys-made-in-sessions.js';
import { up as identityLinkControls } from './0018-identity-link-controls.js';
import { up as auditByTime } from './0019-audit-by-time.js';
import { up as replacedBy } from './0020-replaced-by.js';
import { up as oauthAuthorizationServer } from './0021-oauth-authorization-server.js';
import { up as memoryErasures } from './0022-memory-erasures.js';
import { up as memoryGrants } from './0023-memory-grants.js';
import { up as erasureQuoteFingerprints } from './0024-erasure-quote-fingerprints.js';

/**
 * The migrations ship inside the bundle, in order, so a published package needs no migration
 * files on disk. Forward-only: there is no `down`; a mistake is fixed by a new migration.
 * Each is imported by its `up` (not `import * as`): a namespace import makes esbuild put its
 * `__export` helper in a shared chunk that every other chunk imports bare, and the apps' bundles
 * then warn that they ignore that import (sideEffects: false).
 */
const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-initial-schema': { up: initialSchema },
  '0002-memories-fillfactor': { up: memoriesFillfactor },
  '0003-importance-index': { up: importanceIndex },
  '0004-search-context': { up: searchContext },
  '0005-job-bookkeeping': { up: jobBookkeeping },
  '0006-vector-shards': { up: vectorShards },
  '0007-full-text-no-pending-list': { up: fullTextNoPendingList },
  '0008-lexical-index': { up: lexicalIndex },
  '0009-sessions-by-user': { up: sessionsByUser },
  '0010-unlogged-rate-limit-counters': { up: unloggedRateLimitCounters },
  '0011-import-ledger': { up: importLedger },
  '0012-bulk-lexical-index': { up: bulkLexicalIndex },
  '0013-marker-indexes': { up: markerIndexes },
  '0014-sessions-by-api-key': { up: sessionsByApiKey },
  '0015-striped-lexical-statistics': { up: stripedLexicalStatistics },
  '0016-api-key-parents': { up: apiKeyParents },
  '0017-keys-made-in-sessions': { up: keysMadeInSessions },
  '0018-identity-link-controls': { up: identityLinkControls },
  '0019-audit-by-time': { up: auditByTime },
  '0020-replaced-by': { up: replacedBy },
  '0021-oauth-authorization-server': { up: oauthAuthorizationServer },
  '0022-memory-erasures': { up: memoryErasures },
  '0023-memory-grants': { up: memoryGrants },
  '0024-erasure-quote-fingerprints': { up: erasureQuoteFingerprints },
};

const bundledMigrations: MigrationProvider = {
  getMigrations: async () => ({ ...MIGRATIONS }),
};

export const MIGRATION_TABLE = 'memsvc_migration';
export const MIGRATION_LOCK_TABLE = 'memsvc_migration_lock';

/**
 * The name of the embedded-database template this build makes and loads (PgliteTemplates): the
 * migrations' code, and the shard count the one that generates `vector_shard` reads.
 */
export function embeddedTemplateFingerprint(): string {
  templateFingerprint ??= embeddedSchemaFingerprint({ ...MIGRATIONS, shards: { up: `vector shards: ${VECTOR_SHARDS}` } });
  return templateFingerprint;
}
let templateFingerprint: string | undefined;

/** The names of every migration this version knows, oldest first. */
export const KNOWN_MIGRATIONS: readonly string[] = Object.keys(MIGRATIONS);

/** Names of the known migrations not yet applied to this database (all of them on an empty one). */
export async function pendingMigrations(db: Kysely<unknown>): Promise<readonly string[]> {
  const applied = new Set(await appliedMigrations(db));
  return KNOWN_MIGRATIONS.filter((name) => !applied.has(name));
}

/**
 * The names in the migration table, in name order; none when there is no table yet. Read
 * directly rather than through Kysely's Migrator, which first introspects every column of every
 * table to learn whether its two tables exist: 235 ms of the ~350 ms of SQL that opening an
 * embedded database cost on every server start and CLI command, for a database already up to date.
 */
async function appliedMigrations(db: Kysely<unknown>): Promise<string[]> {
  const table = await sql<{ exists: boolean }>`SELECT to_regclass(${MIGRATION_TABLE}) IS NOT NULL AS exists`.execute(db);
  if (!table.rows[0]?.exists) return [];
  const rows = await sql<{ name: string }>`SELECT name FROM ${sql.table(MIGRATION_TABLE)} ORDER BY name`.execute(db);
  return rows.rows.map((row) => row.name);
}

/**
 * Brings the schema up to date. Kysely runs the pending migrations in one transaction that
 * holds a PostgreSQL advisory lock, so replicas booting together apply each migration exactly
 * once and the others wait, then find nothing to do. Running it again is a no-op.
 */
export async function migrateToLatest(db: Kysely<unknown>): Promise<readonly string[]> {
  // A database whose migrations are exactly this version's needs nothing, not even the lock.
  // Any other state (pending, or migrations of a newer version) goes to the Migrator, which
  // applies what is missing under its lock or refuses what it does not know.
  const applied = await appliedMigrations(db);
  if (applied.length === KNOWN_MIGRATIONS.length && applied.every((name, i) => name === KNOWN_MIGRATIONS[i])) return [];
  return migrateUpTo(db, undefined);
}

/**
 * Applies the pending migrations up to and including `last` (all of them when undefined): how
 * the upgrade tests build a database as an older version left it.
 */
export async function migrateUpTo(db: Kysely<unknown>, last: string | undefined): Promise<readonly string[]> {
  const migrator = new Migrator({
    db,
    provider: bundledMigrations,
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
  const { error, results }: MigrationResultSet = await (last === undefined ? migrator.migrateToLatest() : migrator.migrateTo(last));
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new MemsvcError(
      'STORAGE_UNAVAILABLE',
      `database migration ${failed ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`.replace('  ', ' '),
      { migration: failed },
      { cause: error },
    );
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
