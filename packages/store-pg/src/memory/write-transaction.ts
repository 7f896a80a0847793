import { createHash } from 'node:crypto';
import type { TenantId } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import { retryingLockConflicts } from '../connection/lock-conflicts.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/** Per-transaction HNSW settings (PGVECTOR_HNSW_EF_SEARCH; pgvector 0.8 iterative scans). */
export interface SearchSettings {
  readonly efSearch: number | undefined;
  readonly iterativeScan: boolean;
}

/** pgvector's own default candidate list size, used when PGVECTOR_HNSW_EF_SEARCH is unset. */
const DEFAULT_EF_SEARCH = 40;

/**
 * The advisory-lock key of rule-checked writes of one content in one tenant: 64 bits of a
 * SHA-256, so every process computes the same key, with a domain prefix that keeps these keys
 * apart from the job locks. Held to the end of the transaction, it serialises writes of the same
 * content, so two identical writes can never both pass the duplicate check. Writes of different
 * content do not wait for each other (a lock per tenant would queue every write of a busy
 * tenant), so two *near*-duplicates written at the same instant may both be stored; corpus
 * consolidation merges such pairs later.
 */
export function writeLockKey(tenant: TenantId, contentHash: string): bigint {
  return createHash('sha256').update(`memsvc:write:${tenant}|${contentHash}`).digest().readBigInt64BE(0);
}

/**
 * The search settings as every connection's session settings (see OpenDatabaseOptions), so a
 * recall is one statement and no transaction. The iterative scan is asked for whatever the
 * pgvector version, as the connection may open before the extension exists: pgvector older than
 * 0.8 drops the unknown setting with a warning in the server log, and searches as before.
 */
export function searchSessionSettings(efSearch: number | undefined): Record<string, string> {
  const value = efSearch ?? DEFAULT_EF_SEARCH;
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`hnsw.ef_search must be a positive integer, got ${value}`);
  return { 'hnsw.ef_search': String(value), 'hnsw.iterative_scan': 'relaxed_order' };
}

/**
 * The settings as `set_config` calls local to the transaction, for a SELECT list. Formatted
 * here from a checked integer, so the text can travel in a simple-protocol message.
 */
function settingsSelectList(search: SearchSettings): string[] {
  const efSearch = search.efSearch ?? DEFAULT_EF_SEARCH;
  if (!Number.isSafeInteger(efSearch) || efSearch < 1) throw new RangeError(`hnsw.ef_search must be a positive integer, got ${efSearch}`);
  const settings = [`set_config('hnsw.ef_search', '${efSearch}', true)`];
  // With a tenant filter, a plain HNSW scan returns ef_search candidates and then filters
  // them, which can leave fewer than `limit` rows; an iterative scan keeps going instead.
  if (search.iterativeScan) settings.push(`set_config('hnsw.iterative_scan', 'relaxed_order', true)`);
  return settings;
}

/** Takes the write lock `key` and applies the search settings in a transaction already open, in one statement. */
export async function lockInTransaction(trx: Kysely<MemsvcDatabase>, key: bigint, search: SearchSettings): Promise<void> {
  await sql.raw(`SELECT ${[lockCall(key), ...settingsSelectList(search)].join(', ')}`).execute(trx);
}

function lockCall(key: bigint): string {
  return `pg_advisory_xact_lock(${BigInt.asIntN(64, key)})`;
}

/**
 * Runs `work` in a transaction that already holds the write lock `key` and the search settings.
 * BEGIN, the lock and the settings travel as one simple-protocol message (one round trip, not
 * three): every value in it is a number this process formatted, so nothing needs a parameter.
 * The lock is released by COMMIT or ROLLBACK, never left behind on a pooled connection. A
 * transaction the server aborts to break a deadlock runs again (retryingLockConflicts), so
 * `work` must decide from what it reads, not from state kept across calls.
 */
export function inLockedTransaction<T>(
  db: Kysely<MemsvcDatabase>,
  key: bigint,
  search: SearchSettings,
  work: (connection: Kysely<MemsvcDatabase>) => Promise<T>,
): Promise<T> {
  return inTransaction(db, lockCall(key), search, work);
}

/** Runs `work` in a transaction with the search settings applied (no lock), prelude in one round trip. */
export function inSearchTransaction<T>(
  db: Kysely<MemsvcDatabase>,
  search: SearchSettings,
  work: (connection: Kysely<MemsvcDatabase>) => Promise<T>,
): Promise<T> {
  return inTransaction(db, undefined, search, work);
}

function inTransaction<T>(
  db: Kysely<MemsvcDatabase>,
  lock: string | undefined,
  search: SearchSettings,
  work: (connection: Kysely<MemsvcDatabase>) => Promise<T>,
): Promise<T> {
  const prelude = `BEGIN; SELECT ${[...(lock ? [lock] : []), ...settingsSelectList(search)].join(', ')}`;
  return retryingLockConflicts(() => runOnce(db, prelude, work));
}

function runOnce<T>(db: Kysely<MemsvcDatabase>, prelude: string, work: (connection: Kysely<MemsvcDatabase>) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql.raw(prelude).execute(connection);
    try {
      const result = await work(connection);
      await sql.raw('COMMIT').execute(connection);
      return result;
    } catch (error) {
      // A failed ROLLBACK means the connection is gone; the server has rolled back already.
      await sql
        .raw('ROLLBACK')
        .execute(connection)
        .catch(() => undefined);
      throw error;
    }
  });
}
