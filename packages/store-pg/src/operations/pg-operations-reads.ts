import type { Clock, TenantId } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import { isLiveAt } from '../memory/memory-row.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/** What the operator's reads run on. */
export interface PgOperationsReadsOptions {
  readonly db: Kysely<MemsvcDatabase>;
  /** Judges which short-term memories have expired, as the reindex does. */
  readonly clock: Clock;
  /** Audit rows the hourly count reads at most (default AUDIT_SCAN_MAX). */
  readonly auditScanMax?: number;
}

/** How many memory operations of one kind (an audit action) happened in one hour. */
export interface HourlyOperations {
  /** Hours after `since`: 0 is the hour starting at `since`. */
  readonly hour: number;
  readonly action: string;
  readonly count: number;
}

/** Audit actions counted per hour, and whether the count saw every row of the window. */
export interface OperationsActivity {
  readonly since: Date;
  readonly hours: number;
  readonly counts: readonly HourlyOperations[];
  /** Audit rows read (newest first); at most the scan's bound (AUDIT_SCAN_MAX). */
  readonly scanned: number;
  /** False when the scan reached its bound inside the window: the oldest hours are undercounted. */
  readonly complete: boolean;
}

/** Memories alive at the end of one day, by tier. */
export interface TierDay {
  /** The day's start (UTC midnight). */
  readonly day: Date;
  readonly ltm: number;
  readonly stm: number;
}

/** One scheduled job's row in scheduler_state. */
export interface SchedulerRun {
  readonly job: string;
  readonly lastStartedAt: Date | null;
  readonly lastFinishedAt: Date | null;
  readonly lastStatus: string | null;
  readonly lastError: string | null;
  readonly runCount: number;
}

/** Audit rows the hourly count reads at most: a backward walk of the primary key, never the whole trail. */
export const AUDIT_SCAN_MAX = 100_000;
/** Hours and days a chart spans at most. */
const MAX_HOURS = 24 * 14;
const MAX_DAYS = 366;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The operator's cross-tenant reads behind the dashboard's operations page (issue 18): activity
 * per hour from the audit trail, memories per tier per day, the scheduler's last runs, and the
 * size of a reindex job's walk. Every read is bounded: by a limit on an index walk, or by
 * returning one row per tier and day. Nothing here writes.
 */
export class PgOperationsReads {
  constructor(private readonly options: PgOperationsReadsOptions) {}

  /**
   * Audit actions per hour over the `hours` whole hours up to the one holding `until`. The
   * newest AUDIT_SCAN_MAX rows are read along the primary key (the identity id follows insertion
   * order) — memory_audit has no index on created_at, and a count must not read the whole trail.
   */
  async operationsPerHour(query: { readonly until: Date; readonly hours: number }): Promise<OperationsActivity> {
    const hours = clamp(query.hours, 1, MAX_HOURS);
    const end = Math.floor(query.until.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS;
    const since = new Date(end - hours * HOUR_MS);
    const bound = this.options.auditScanMax ?? AUDIT_SCAN_MAX;
    const result = await sql<{ hour: number | null; action: string | null; count: number; oldest_id_at: Date | null }>`
      WITH recent AS (
        SELECT id, created_at, action FROM memory_audit ORDER BY id DESC LIMIT ${bound}
      )
      SELECT floor(extract(epoch FROM created_at - ${since}::timestamptz) / 3600)::int AS hour, action, count(*)::int AS count,
             NULL::timestamptz AS oldest_id_at
        FROM recent
       WHERE created_at >= ${since}::timestamptz AND created_at < ${new Date(end)}::timestamptz
       GROUP BY 1, 2
      UNION ALL
      SELECT NULL, NULL, (SELECT count(*)::int FROM recent), (SELECT created_at FROM recent ORDER BY id LIMIT 1)`.execute(this.options.db);
    const summary = result.rows.find((row) => row.hour === null);
    const scanned = summary?.count ?? 0;
    const oldest = summary?.oldest_id_at ?? null;
    return {
      since,
      hours,
      counts: result.rows
        .filter((row): row is typeof row & { hour: number; action: string } => row.hour !== null && row.action !== null)
        .map((row) => ({ hour: row.hour, action: row.action, count: row.count }))
        .sort((a, b) => a.hour - b.hour || a.action.localeCompare(b.action)),
      scanned,
      // A full scan whose oldest row is still inside the window may have stopped short of it.
      complete: scanned < bound || (oldest !== null && oldest < since),
    };
  }

  /**
   * Memories alive at the end of each of the `days` days up to the one holding `until`, by their
   * current tier, from created_at and deleted_at. One pass over memories turns each row into at
   * most two events (+1 when created, −1 when deleted) grouped by tier and day — before the
   * window, all in one bucket — so the result is a few dozen rows whatever the corpus size.
   * Hard-deleted (pruned) rows are gone and no longer count in the days they lived.
   */
  async memoriesByTierPerDay(query: { readonly until: Date; readonly days: number }): Promise<readonly TierDay[]> {
    const days = clamp(query.days, 1, MAX_DAYS);
    const end = Math.floor(query.until.getTime() / DAY_MS) * DAY_MS + DAY_MS;
    const start = new Date(end - days * DAY_MS);
    const result = await sql<{ tier: 'ltm' | 'stm'; day: number; delta: number }>`
      SELECT m.tier, greatest(-1, floor(extract(epoch FROM e.at - ${start}::timestamptz) / 86400))::int AS day, sum(e.delta)::int AS delta
        FROM memories m
       CROSS JOIN LATERAL (VALUES (m.created_at, 1), (m.deleted_at, -1)) AS e (at, delta)
       WHERE e.at IS NOT NULL AND e.at < ${new Date(end)}::timestamptz
       GROUP BY 1, 2`.execute(this.options.db);
    const deltas = { ltm: new Array<number>(days + 1).fill(0), stm: new Array<number>(days + 1).fill(0) };
    for (const row of result.rows) deltas[row.tier][row.day + 1] = row.delta;
    const series: TierDay[] = [];
    let ltm = deltas.ltm[0] ?? 0;
    let stm = deltas.stm[0] ?? 0;
    for (let day = 0; day < days; day++) {
      ltm += deltas.ltm[day + 1] ?? 0;
      stm += deltas.stm[day + 1] ?? 0;
      series.push({ day: new Date(start.getTime() + day * DAY_MS), ltm, stm });
    }
    return series;
  }

  /** The scheduled jobs' rows of scheduler_state (a handful: one per job name), by name. */
  async schedulerRuns(): Promise<readonly SchedulerRun[]> {
    const rows = await this.options.db
      .selectFrom('scheduler_state')
      .select(['job_name', 'last_started_at', 'last_finished_at', 'last_status', 'last_error', 'run_count'])
      .orderBy('job_name')
      .limit(100)
      .execute();
    return rows.map((row) => ({
      job: row.job_name,
      lastStartedAt: row.last_started_at,
      lastFinishedAt: row.last_finished_at,
      lastStatus: row.last_status,
      lastError: row.last_error,
      runCount: Number(row.run_count),
    }));
  }

  /**
   * How many memories a reindex walk covers: the live ones (of one tenant, after a memory id),
   * counted up to `limit` — a progress bar's denominator, not an exact figure, so the count stops
   * where the bar no longer needs it.
   */
  async countReindexWalk(query: {
    readonly tenant: TenantId | undefined;
    readonly after: string | undefined;
    readonly limit: number;
  }): Promise<number> {
    const limit = clamp(query.limit, 1, Number.MAX_SAFE_INTEGER);
    const row = await this.options.db
      .selectFrom((eb) =>
        eb
          .selectFrom('memories')
          .select('id')
          .where(isLiveAt(this.options.clock.now()))
          .$if(query.tenant !== undefined, (select) => select.where('user_id', '=', query.tenant ?? ''))
          .$if(query.after !== undefined, (select) => select.where('id', '>', query.after ?? ''))
          .limit(limit)
          .as('walk'),
      )
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.trunc(Number.isFinite(value) ? value : min)));
}
