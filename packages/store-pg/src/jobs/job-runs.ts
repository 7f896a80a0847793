import { createHash } from 'node:crypto';
import type { Clock } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import type { DatabaseEngine } from '../connection/open-database.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/** What became of one attempt to run a scheduled job. */
export type JobRunOutcome =
  | { readonly ran: true; readonly runCount: number }
  /** Another process holds the job's lock: it is running there right now. */
  | { readonly ran: false; readonly reason: 'running-elsewhere' }
  /** It already ran in this interval (in this process or another). */
  | { readonly ran: false; readonly reason: 'not-due' };

/**
 * A run counts as this tick's when the job last started less than this fraction of an interval
 * ago: workers whose timers are out of phase then skip, instead of running the job twice.
 */
const DUE_FRACTION = 0.8;

/**
 * Runs scheduled jobs once per interval across every process sharing the database (spec §1.9,
 * DESIGN §5). On PostgreSQL a job holds a session advisory lock for as long as it runs, on a
 * connection reserved for that, so a second worker skips it instead of running it alongside;
 * `scheduler_state` then records the start, and a job that started less than 0.8 of an interval
 * ago is not due, so workers out of phase do not run it twice per tick. A PGlite directory is
 * hosted by one process at a time (shared-pglite.ts): jobs run there, under an in-process lock.
 * Times come from the process's Clock, so a scheduler can be stepped through on a fake one; the
 * 0.2-interval margin of DUE_FRACTION absorbs any skew between the replicas' clocks.
 */
export class JobRuns {
  readonly #runningHere = new Set<string>();

  constructor(
    private readonly db: Kysely<MemsvcDatabase>,
    private readonly engine: DatabaseEngine,
    private readonly clock: Clock,
    /** PGlite: whether this process hosts the shared directory now (shared-pglite.ts); jobs run only there. */
    private readonly hosting: () => boolean = () => true,
  ) {}

  async runExclusive(job: string, intervalMs: number, work: () => Promise<string>): Promise<JobRunOutcome> {
    if (this.#runningHere.has(job)) return { ran: false, reason: 'running-elsewhere' };
    this.#runningHere.add(job);
    try {
      if (this.engine === 'pglite') {
        // Every process of a shared directory shares PGlite's one session, so an advisory lock
        // would be granted to all of them: the host alone runs jobs, and hosting moves with a handover.
        if (!this.hosting()) return { ran: false, reason: 'running-elsewhere' };
        return await this.runIfDue(job, intervalMs, work);
      }
      return await this.db.connection().execute(async (connection) => {
        const key = jobLockKey(job);
        const locked = await sql<{ locked: boolean }>`SELECT pg_try_advisory_lock(${key}) AS locked`.execute(connection);
        if (!locked.rows[0]?.locked) return { ran: false, reason: 'running-elsewhere' } as const;
        try {
          return await this.runIfDue(job, intervalMs, work);
        } finally {
          await sql`SELECT pg_advisory_unlock(${key})`.execute(connection).catch(() => undefined);
        }
      });
    } finally {
      this.#runningHere.delete(job);
    }
  }

  /** The scheduler_state rows: when each job last ran, how it ended, how often it ran. */
  async history(): Promise<readonly { job: string; runCount: number; lastStatus: string | null; lastError: string | null }[]> {
    const rows = await this.db.selectFrom('scheduler_state').selectAll().orderBy('job_name').execute();
    return rows.map((row) => ({
      job: row.job_name,
      runCount: Number(row.run_count),
      lastStatus: row.last_status,
      lastError: row.last_error,
    }));
  }

  private async runIfDue(job: string, intervalMs: number, work: () => Promise<string>): Promise<JobRunOutcome> {
    const now = this.clock.now();
    const dueIfStartedBefore = new Date(now.getTime() - intervalMs * DUE_FRACTION);
    const started = await sql<{ run_count: string }>`
      INSERT INTO scheduler_state AS s (job_name, last_started_at, run_count, updated_at)
      VALUES (${job}, ${now}, 1, ${now})
      ON CONFLICT (job_name) DO UPDATE SET last_started_at = ${now}, run_count = s.run_count + 1, updated_at = ${now}
      WHERE s.last_started_at IS NULL OR s.last_started_at <= ${dueIfStartedBefore}
      RETURNING run_count`.execute(this.db);
    const row = started.rows[0];
    if (!row) return { ran: false, reason: 'not-due' };
    let status = 'success';
    let error: string | null = null;
    try {
      status = await work();
    } catch (caught) {
      status = 'failed';
      error = (caught as Error).message ?? String(caught);
      throw caught;
    } finally {
      await this.db
        .updateTable('scheduler_state')
        .set({ last_finished_at: this.clock.now(), last_status: status, last_error: error, updated_at: this.clock.now() })
        .where('job_name', '=', job)
        .execute()
        .catch(() => undefined);
    }
    return { ran: true, runCount: Number(row.run_count) };
  }
}

/** The advisory-lock key of a scheduled job (its own domain prefix, apart from write locks). */
export function jobLockKey(job: string): bigint {
  return createHash('sha256').update(`memsvc:job:${job}`).digest().readBigInt64BE(0);
}
