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

/**
 * Rewrites a PGlite directory so that no file of it holds a row that is gone (R-ERASE-PGLITE-FILES).
 * A DELETE only marks a row dead: its bytes stay in the heap, TOAST and index pages, in the
 * statistics ANALYZE sampled (pg_statistic) and in the WAL segments that logged it, and PostgreSQL
 * recycles a spent segment by renaming it, its bytes unchanged. So, in this order:
 *
 * 1. `ANALYZE`: new samples replace any that held the erased words.
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
  await sql`ANALYZE`.execute(db);
  const { rows } = await sql<{ name: string }>`
    SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'm') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
      AND n.nspname !~ '^pg_(toast|temp)'
    ORDER BY 1`.execute(db);
  // The statistics last: ANALYZE above left the old samples there as dead rows.
  const tables = [...rows.map((row) => row.name), 'pg_catalog.pg_statistic', 'pg_catalog.pg_statistic_ext_data'];
  await sql`VACUUM (FULL) ${sql.raw(tables.join(', '))}`.execute(db);
  const walSwitches = await retireWalSegments(db);
  return { tables: tables.length, walSwitches, durationMs: Math.round(performance.now() - started) };
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
    let switches = 0;
    for (; switches < MAX_SWITCHES; switches++) {
      // The checkpoint writes a record, so the switch that follows always moves to the next segment.
      await sql`CHECKPOINT`.execute(trx);
      const now = await sql<{ name: string }>`
        SELECT substr(pg_walfile_name(pg_switch_wal()), 9) AS name`.execute(trx);
      // The segment just left: once it is the newest that existed, the next one was created now.
      if ((now.rows[0]?.name ?? '') >= newest) break;
    }
    await sql`CHECKPOINT`.execute(trx);
    return switches + 1;
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
