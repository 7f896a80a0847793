import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/** Rows this process writes before it first looks for the tables' statistics. */
export const FIRST_STATISTICS_ROWS = 200;

/**
 * The tables whose statistics the write and recall plans depend on: without statistics of
 * `user_id`, the planner takes every tenant for a small one.
 */
const PLANNED_TABLES = ['memories', 'memory_terms'] as const;

/** One ANALYZE at a time across processes: replicas starting on a new database need only one. */
const ANALYZE_LOCK_KEY = createHash('sha256').update('memsvc:first-statistics').digest().readBigInt64BE(0);

/**
 * The first ANALYZE of a new database's tables, as soon as they hold rows worth planning for.
 *
 * Until a table has been analysed, the planner guesses that `user_id = $1` matches a handful of
 * rows, so the write's nearest-neighbour search and recall's vector list scan the whole tenant
 * instead of walking its HNSW graph: on a new database, one tenant's writes slowed from ~250 to
 * ~100 a second as the tenant grew to 5,000 memories, until autovacuum, which visits each
 * database once a minute, happened to analyse the table (and PGlite has no autovacuum at all).
 * After `FIRST_STATISTICS_ROWS` rows written by this process, and again at each doubling while
 * needed, it checks whether the tables have statistics for `user_id` and analyses those that do
 * not, in the background. Once they have them it never checks again: from then on autovacuum (or
 * PgliteAutovacuum) keeps them current, and the planner scales them with the table's size.
 */
export class FirstStatistics {
  #written = 0;
  #nextCheck = FIRST_STATISTICS_ROWS;
  #done = false;
  #running: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<MemsvcDatabase>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Counts rows written (after their commit); may start a check, never waits for one. */
  noteWritten(rows: number): void {
    if (this.#done) return;
    this.#written += rows;
    if (this.#written < this.#nextCheck || this.#running) return;
    this.#nextCheck = this.#written * 2;
    this.#running = this.check()
      .catch(this.onError)
      .finally(() => {
        this.#running = undefined;
      });
  }

  /** Resolves once no check is running (before the store closes, and in tests). */
  async settle(): Promise<void> {
    await this.#running;
  }

  private async check(): Promise<void> {
    const { rows } = await sql<{ table: string }>`
      SELECT planned.name AS table
      FROM unnest(${[...PLANNED_TABLES]}::text[]) AS planned (name)
      WHERE NOT EXISTS (
        SELECT 1 FROM pg_stats
        WHERE schemaname = current_schema() AND tablename = planned.name AND attname = 'user_id'
      )`.execute(this.db);
    if (rows.length === 0) {
      this.#done = true;
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      const locked = await sql<{
        locked: boolean;
      }>`SELECT pg_try_advisory_xact_lock(${sql.lit(ANALYZE_LOCK_KEY.toString())}::bigint) AS locked`.execute(trx);
      // Another process is analysing: the next check sees its result.
      if (!locked.rows[0]?.locked) return;
      for (const { table } of rows) await sql`ANALYZE ${sql.id(table)}`.execute(trx);
    });
  }
}
