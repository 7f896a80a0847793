import type { TimerHandle, Timers } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';

const HOST_TIMERS: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** How often the embedded engine's tables are checked, by default: PostgreSQL's autovacuum_naptime. */
export const PGLITE_AUTOVACUUM_INTERVAL_MS = 60_000;

/** A table's activity since its last VACUUM and ANALYZE, as pg_stat_user_tables counts it. */
export interface TableActivity {
  readonly table: string;
  readonly liveRows: number;
  readonly deadRows: number;
  readonly insertedSinceVacuum: number;
  readonly modifiedSinceAnalyze: number;
}

/** What a table needs, by PostgreSQL's own autovacuum rules. */
export interface TableUpkeep {
  readonly table: string;
  readonly vacuum: boolean;
  readonly analyze: boolean;
}

/**
 * PostgreSQL's default autovacuum thresholds (autovacuum_vacuum_threshold and _scale_factor,
 * the insert and analyze ones): a table is vacuumed once its dead rows, or its rows inserted
 * since the last vacuum, pass a base plus a fraction of its size, and analysed once its changed
 * rows do.
 */
export function upkeepOf(activity: TableActivity): TableUpkeep {
  const size = activity.liveRows;
  return {
    table: activity.table,
    vacuum: activity.deadRows > 50 + 0.2 * size || activity.insertedSinceVacuum > 1000 + 0.2 * size,
    analyze: activity.modifiedSinceAnalyze > 50 + 0.1 * size,
  };
}

/**
 * The embedded engine's stand-in for autovacuum. PGlite runs PostgreSQL as a single process
 * with no background workers, so nothing ever vacuums or analyses its tables: dead rows stay,
 * the visibility map is never set (the postings' index-only scans read the heap for every
 * posting), and the planner has no statistics. Every `intervalMs` this checks memsvc's tables
 * against PostgreSQL's own thresholds and runs `VACUUM (ANALYZE)` or `ANALYZE` on the ones that
 * pass them. PGlite has one connection, so a pass holds the database for its duration (tens of
 * milliseconds for a few thousand memories); the thresholds keep passes rare.
 */
export class PgliteAutovacuum {
  #timer: TimerHandle | undefined;
  #running: Promise<unknown> | undefined;
  #stopped = false;

  constructor(
    private readonly db: Kysely<MemsvcDatabase>,
    private readonly options: {
      readonly intervalMs: number;
      readonly onError: (error: unknown) => void;
      /** The host's timers unless a test steps its own. */
      readonly timers?: Timers | undefined;
      /** Whether this process hosts the database (a shared directory is kept by its host alone); default: always. */
      readonly hosting?: (() => boolean) | undefined;
    },
  ) {}

  get #timers(): Timers {
    return this.options.timers ?? HOST_TIMERS;
  }

  /** Schedules the checks; the timer never keeps the process alive. */
  start(): void {
    if (this.options.intervalMs <= 0 || this.#stopped) return;
    this.#timer = this.#timers.setTimeout(() => {
      const hosting = this.options.hosting?.() ?? true;
      this.#running = (hosting ? this.runOnce() : Promise.resolve()).catch(this.options.onError).finally(() => {
        this.#running = undefined;
        this.start();
      });
    }, this.options.intervalMs);
    this.#timer.unref?.();
  }

  /** Resolves once no pass is running. */
  async idle(): Promise<void> {
    await this.#running;
  }

  /** Stops the checks: the pass in progress finishes the table it is on and skips the rest. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) this.#timers.clearTimeout(this.#timer);
    await this.#running;
  }

  /** One check: vacuums and analyses the tables that need it; returns what each needed. */
  async runOnce(): Promise<readonly TableUpkeep[]> {
    // The counters of this one process are flushed to the statistics views at most once a
    // second; flushed now, the check sees every write so far.
    await sql`SELECT pg_stat_force_next_flush()`.execute(this.db);
    const activity = await sql<{ table: string; live: string; dead: string; inserted: string; modified: string }>`
      SELECT relname AS table, n_live_tup AS live, n_dead_tup AS dead, n_ins_since_vacuum AS inserted,
             n_mod_since_analyze AS modified
      FROM pg_stat_user_tables WHERE schemaname = current_schema()`.execute(this.db);
    const upkeep = activity.rows
      .map((row) =>
        upkeepOf({
          table: row.table,
          liveRows: Number(row.live),
          deadRows: Number(row.dead),
          insertedSinceVacuum: Number(row.inserted),
          modifiedSinceAnalyze: Number(row.modified),
        }),
      )
      .filter((table) => table.vacuum || table.analyze);
    for (const { table, vacuum } of upkeep) {
      if (this.#stopped) break;
      await sql`${sql.raw(vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE')} ${sql.id(table)}`.execute(this.db);
    }
    return upkeep;
  }
}
