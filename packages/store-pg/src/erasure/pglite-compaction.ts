import { type Kysely, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/** What one compaction did, and how long it took. */
export interface CompactionReport {
  /** The tables rewritten by VACUUM (FULL), with their TOAST tables and indexes. */
  readonly tables: number;
  /** How many WAL segments the compaction switched through to leave every one that existed behind. */
  readonly walSwitches: number;
  readonly durationMs: number;
}

/** A WAL segment's file name: timeline, log and segment, 8 hex digits each. */
const SEGMENT_NAME = '^[0-9A-F]{24}$';
/** A bound on the switches, far above any real count (min_wal_size keeps 5 recycled segments by default). */
const MAX_SWITCHES = 1_000;

/** memsvc's relations (tables and indexes): every schema but the system's. */
const ours = sql`n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_(toast|temp)'`;

/**
 * Rewrites a PGlite directory so that no file of it holds a row that is gone (R-ERASE-PGLITE-FILES).
 * A DELETE only marks a row dead: its bytes stay in the heap, TOAST and index pages, in the
 * statistics ANALYZE sampled (pg_statistic) and in the WAL segments that logged it, and PostgreSQL
 * recycles a spent segment by renaming it, its bytes unchanged. So, in this order:
 *
 * 1. The statistics of our tables are dropped and sampled again (`ANALYZE`): no sample holds an erased word.
 * 2. `VACUUM (FULL)` of every table of ours and of the statistics: each is copied, live rows only,
 *    into a new file, and the old file is truncated to nothing at commit (removed at the next
 *    checkpoint); its TOAST table and every index (B-tree, GIN, HNSW) are built again.
 * 3. With `wal_recycle` off, CHECKPOINT and `pg_switch_wal()` until the WAL is written in a
 *    segment created after every one that was there (a new segment is zero-filled), then a last
 *    CHECKPOINT: every older segment is no longer needed and is deleted, not renamed.
 *
 * It speaks only SQL, so it runs in the process that hosts the directory whichever process asks
 * (shared-pglite.ts): the host owns the files. The database stays open and whole throughout.
 */
export async function compactPgliteFiles(db: Kysely<MemsvcDatabase>): Promise<CompactionReport> {
  const started = performance.now();
  const { rows } = await sql<{ name: string }>`
    SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'm') AND ${ours}
    ORDER BY 1`.execute(db);
  const ourTables = rows.map((row) => row.name);
  await sampleAgain(db, ourTables);
  // The statistics last: the samples replaced above are dead rows there.
  const tables = [...ourTables, 'pg_catalog.pg_statistic', 'pg_catalog.pg_statistic_ext_data'];
  await sql`VACUUM (FULL) ${sql.raw(tables.join(', '))}`.execute(db);
  const walSwitches = await retireWalSegments(db);
  return { tables: tables.length, walSwitches, durationMs: Math.round(performance.now() - started) };
}

/**
 * Drops the statistics of our tables and indexes and samples them again, in one transaction (the
 * planner never sees them missing). ANALYZE alone is not enough: on a table it finds empty (the
 * only memories were erased) it keeps the old samples, erased words and all.
 */
async function sampleAgain(db: Kysely<MemsvcDatabase>, tables: readonly string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const relations = sql`SELECT c.oid FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace WHERE ${ours}`;
    await sql`DELETE FROM pg_catalog.pg_statistic WHERE starelid IN (${relations})`.execute(trx);
    await sql`DELETE FROM pg_catalog.pg_statistic_ext_data WHERE stxoid IN (
      SELECT oid FROM pg_catalog.pg_statistic_ext WHERE stxrelid IN (${relations}))`.execute(trx);
    if (tables.length > 0) await sql`ANALYZE ${sql.raw(tables.join(', '))}`.execute(trx);
  });
}

/**
 * Leaves every WAL segment that exists now behind and deletes it. One transaction, so that
 * `wal_recycle = off` holds for these checkpoints alone whatever the host was started with, and
 * (through the socket host) no other connection's statement runs in between.
 */
async function retireWalSegments(db: Kysely<MemsvcDatabase>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL wal_recycle = off`.execute(trx);
    const last = await sql<{ name: string | null }>`
      SELECT max(substr(name, 9)) AS name FROM pg_ls_waldir() WHERE name ~ ${SEGMENT_NAME}`.execute(trx);
    const newest = last.rows[0]?.name ?? '';
    for (let switches = 1; switches <= MAX_SWITCHES; switches++) {
      // The checkpoint writes a record, so the switch that follows always moves to the next segment.
      await sql`CHECKPOINT`.execute(trx);
      const left = await sql<{ name: string }>`
        SELECT substr(pg_walfile_name(pg_switch_wal()), 9) AS name`.execute(trx);
      // The segment just left: once it is the newest that existed, the next one was created now.
      if ((left.rows[0]?.name ?? '') >= newest) {
        await sql`CHECKPOINT`.execute(trx);
        return switches;
      }
    }
    throw new Error(`the WAL did not move past segment ${newest} in ${MAX_SWITCHES} switches: older segments may remain`);
  });
}

/**
 * Runs compactPgliteFiles for every erasure of this process, sharing runs: a caller waits for a
 * run that starts after it asked (one already under way may have read the tables before its
 * erasure committed), and every caller that asked meanwhile shares that next run.
 */
export class PgliteCompaction {
  readonly #db: Kysely<MemsvcDatabase>;
  #running: Promise<CompactionReport> | undefined;
  #next: Promise<CompactionReport> | undefined;
  #last: CompactionReport | undefined;

  constructor(db: Kysely<MemsvcDatabase>) {
    this.#db = db;
  }

  /** The report of the last run that finished, if any. */
  get last(): CompactionReport | undefined {
    return this.#last;
  }

  /** Compacts the directory after everything committed before this call. */
  run(): Promise<CompactionReport> {
    if (!this.#running) return this.#start();
    this.#next ??= this.#running
      .catch(() => undefined)
      .then(() => {
        this.#next = undefined;
        return this.#start();
      });
    return this.#next;
  }

  #start(): Promise<CompactionReport> {
    const run = compactPgliteFiles(this.#db)
      .then((report) => {
        this.#last = report;
        return report;
      })
      .finally(() => {
        if (this.#running === run) this.#running = undefined;
      });
    this.#running = run;
    return run;
  }
}
