import type { Clock, TenantId, TimerHandle, Timers } from '@memsvc/core';
import type { Kysely } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { FailingReadPause } from './failing-read-pause.js';
import type { RecentWrites } from './recent-writes.js';
import { ReplayProgress } from './replay-progress.js';
import type { ReadRoute, ReplicaEvents, ReplicaState, ReplicaStatus } from './replica-status.js';
import { readPrimaryFlushPosition, readStandbyReport } from './standby-queries.js';
import { describeError, isUnreachable } from './unreachable-errors.js';

/** A failed read on the standby, or a failed check of the primary, is worth a log line at most this often. */
const FAILURE_WARNING_INTERVAL_MS = 60_000;

export interface ReplicaMonitorOptions {
  readonly primary: Kysely<MemsvcDatabase>;
  readonly standby: Kysely<MemsvcDatabase>;
  /** Wall time, for the time of the last check (`status().checkedAt`). */
  readonly clock: Clock;
  /**
   * Milliseconds on a clock that only moves forward (on the host, forwardClock): lags, ages and
   * pauses are measured on it, so a wall clock stepped back cannot make a stale standby look
   * fresh, and a suspended host's stopped monotonic clock cannot either.
   */
  readonly elapsedMs: () => number;
  readonly timers: Timers;
  /** How often the standby is checked. */
  readonly intervalMs: number;
  /** DATABASE_READ_MAX_LAG_MS. */
  readonly maxLagMs: number;
  /**
   * How long a check may take before the standby counts as not answering (its queries may hang
   * on a frozen server; the pool's query timeout ends them too, later or sooner).
   */
  readonly checkTimeoutMs: number;
  readonly writes: RecentWrites;
  readonly events: ReplicaEvents;
  /**
   * Why the server answering is not a standby of the primary's cluster, or undefined: asked
   * before it first serves, and again whenever it answers after not answering.
   */
  readonly verifyStandby?: () => Promise<string | undefined>;
  /** The standby was verified when it was opened. */
  readonly verifiedAtOpen?: boolean;
}

/**
 * Watches a hot standby and decides, read by read, whether it may serve. Every `intervalMs` it
 * reads the primary's flushed WAL position and then the standby's role and replay position:
 * from those come the lag (ReplayProgress), which tenants' writes the standby shows
 * (RecentWrites), and the state. A standby that stops answering, falls behind the bound or is
 * promoted stops serving at once, with one warning per change; it serves again after a check
 * finds it ready. A failed check of the primary changes nothing: the primary's callers see that.
 */
export class ReplicaMonitor {
  readonly #progress = new ReplayProgress();
  #state: ReplicaState = 'unavailable';
  #problem: string | undefined = 'not checked yet';
  /** The state last announced by a warning or a recovery; undefined before the first check. */
  #announced: ReplicaState | undefined;
  #lagMs = 0;
  /** When the last check succeeded, on the elapsed clock; and on the wall clock, for status. */
  #checkedAt: number | undefined;
  #checkedAtWall: Date | undefined;
  /** Until when (elapsed ms) reads stay off a standby whose reads kept failing. */
  /** When each kind of failure was last logged (elapsed ms): at most one line a minute per kind. */
  readonly #readPause = new FailingReadPause();
  readonly #lastFailureWarning = new Map<'read' | 'primary', number>();
  #checking: Promise<void> | undefined;
  #timer: TimerHandle | undefined;
  #stopped = false;
  /** The server answering at the read URL has proven to be a standby of this primary since it last stopped answering. */
  #verified: boolean;

  constructor(private readonly options: ReplicaMonitorOptions) {
    this.#verified = options.verifiedAtOpen === true || options.verifyStandby === undefined;
  }

  /** Where a read of this tenant goes now. */
  route(tenant: TenantId): ReadRoute {
    if (this.#state === 'promoted') return { target: 'primary', reason: 'promoted' };
    if (this.#state === 'unavailable' || this.#checkedAt === undefined) return { target: 'primary', reason: 'unavailable' };
    // The lag as it may be by now: what was measured, plus the time since (the standby may have
    // stopped replaying right after the check).
    const worstLagMs = this.#lagMs + (this.now() - this.#checkedAt);
    if (this.#state === 'lagging' || worstLagMs > this.options.maxLagMs) return { target: 'primary', reason: 'lagging' };
    if (this.options.writes.pending(tenant)) return { target: 'primary', reason: 'recent-write' };
    return { target: 'replica', reason: 'caught-up' };
  }

  /**
   * A read routed to the standby failed (the primary answers it instead). A standby that does
   * not answer serves nothing until a check finds it back. Any other failure (a query cancelled
   * by a recovery conflict, a table the standby has not replayed yet) concerns that read alone —
   * unless FAILED_READS_BEFORE_PAUSE fail in a row: then the standby serves no reads for a pause
   * (5 s, doubled after each pause that more failures follow, up to 60 s), with one warning.
   */
  readFailed(error: unknown): void {
    if (isUnreachable(error)) {
      this.notAnswering(error);
      return;
    }
    const now = this.now();
    // Only reads sent while it serves count: ones that set out before a pause or a state change
    // and fail after it say nothing new.
    if (this.#state === 'ready' && !this.#readPause.paused(now) && this.#readPause.readFailed(now, error)) {
      this.enter('unavailable', this.#readPause.problem);
      return;
    }
    this.warnOfFailure('read', now, 'a read on the read replica failed; the primary answered it instead', error);
  }

  /** A read routed to the standby succeeded: the failures in a row, and the pauses' growth, start over. */
  readSucceeded(): void {
    if (this.#readPause.paused(this.now())) return;
    this.#readPause.readSucceeded();
  }

  /** The state as last checked. */
  status(): ReplicaStatus {
    const checkedAt = this.#checkedAt;
    return {
      state: this.#state,
      lagSeconds: checkedAt === undefined || this.#state === 'unavailable' || this.#state === 'promoted' ? undefined : this.#lagMs / 1000,
      checkedAt: this.#checkedAtWall,
      problem: this.#state === 'ready' ? undefined : this.#problem,
    };
  }

  /** Checks the standby now (sharing a check already in flight); never throws. */
  async check(): Promise<ReplicaStatus> {
    this.#checking ??= this.runCheck().finally(() => {
      this.#checking = undefined;
    });
    await this.#checking;
    return this.status();
  }

  /** Checks every `intervalMs` until stopped; the timer never keeps the process alive. */
  start(): void {
    if (this.#stopped) return;
    this.#timer = this.options.timers.setTimeout(() => {
      this.#timer = undefined;
      void this.check().finally(() => this.start());
    }, this.options.intervalMs);
    this.#timer.unref?.();
  }

  /** Stops the checks, after the one in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) this.options.timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#checking;
  }

  private async runCheck(): Promise<void> {
    const { writes } = this.options;
    // In this order: writes counted, then the primary's position (which covers them), then the
    // standby's (which must reach it).
    const completed = writes.completed;
    const at = this.now();
    let flushed: bigint;
    try {
      flushed = await readPrimaryFlushPosition(this.options.primary);
    } catch (error) {
      // The primary's own callers see it down; but this is the monitor's own connection, which
      // may fail alone (no connection slot left): the lag goes unmeasured, and the standby drifts
      // to lagging, so say why, at most once a minute.
      this.warnOfFailure(
        'primary',
        at,
        "the read replica's monitor could not read the primary's WAL position; the standby's lag is not measured meanwhile",
        error,
      );
      return;
    }
    let report: Awaited<ReturnType<typeof readStandbyReport>>;
    try {
      report = await this.answeredInTime(readStandbyReport(this.options.standby));
    } catch (error) {
      this.notAnswering(error);
      return;
    }
    if (!report.inRecovery) {
      this.enter('promoted', 'it is not a standby (pg_is_in_recovery() is false): promoted, or DATABASE_READ_URL names a primary');
      return;
    }
    if (report.replayedTo === undefined) {
      this.enter('unavailable', 'it is in recovery but replays no WAL');
      return;
    }
    if (!this.#verified && this.options.verifyStandby) {
      let problem: string | undefined;
      try {
        problem = await this.answeredInTime(this.options.verifyStandby());
      } catch (error) {
        this.notAnswering(error);
        return;
      }
      if (problem !== undefined) {
        this.enter('unavailable', problem);
        return;
      }
      this.#verified = true;
    }
    this.#progress.primaryAt(flushed, at, completed);
    const standing = this.#progress.standbyAt(report.replayedTo, this.now());
    writes.visibleUpTo(standing.visibleWrites);
    // Behind every position seen (at the first check, or after an hour of checks), the progress
    // gives only a lower bound: the age of the last transaction replayed bounds it from above.
    // Without one (nothing replayed since the standby started), how far behind is unknown.
    const lagMs = standing.behindHistory ? Math.max(standing.lagMs, report.lastReplayedAgeMs ?? Number.POSITIVE_INFINITY) : standing.lagMs;
    this.#lagMs = Number.isFinite(lagMs) ? lagMs : standing.lagMs;
    this.#checkedAt = this.now();
    this.#checkedAtWall = this.options.clock.now();
    if (!Number.isFinite(lagMs)) {
      this.enter(
        'lagging',
        'it has not replayed up to a position the primary had at a check yet, and has replayed no transaction to tell its age by',
      );
    } else if (lagMs > this.options.maxLagMs) {
      this.enter(
        'lagging',
        `it is ${standing.behindHistory ? 'up to ' : ''}${Math.round(lagMs / 1000)} s behind the primary, beyond DATABASE_READ_MAX_LAG_MS (${this.options.maxLagMs} ms)`,
      );
    } else if (this.#readPause.paused(this.now())) {
      this.enter('unavailable', this.#readPause.problem);
    } else {
      this.enter('ready', undefined);
    }
  }

  /** A failure that changes no state, logged at most once a minute per kind (the metrics count every read). */
  private warnOfFailure(kind: 'read' | 'primary', now: number, message: string, error: unknown): void {
    const last = this.#lastFailureWarning.get(kind);
    if (last !== undefined && now - last < FAILURE_WARNING_INTERVAL_MS) return;
    this.#lastFailureWarning.set(kind, now);
    this.options.events.onWarning?.(message, { error: describeError(error), code: (error as { code?: unknown }).code });
  }

  private notAnswering(error: unknown): void {
    this.#verified = this.options.verifyStandby === undefined;
    this.enter('unavailable', `it does not answer: ${describeError(error)}`);
  }

  /**
   * The standby's answer, or a failure after `checkTimeoutMs`: a standby that froze (it took the
   * query and never answers) is unavailable at once, and the checks go on, instead of one check
   * hanging — and with it every later check, the state and shutdown.
   */
  private answeredInTime<T>(answer: Promise<T>): Promise<T> {
    const ms = this.options.checkTimeoutMs;
    let timer: TimerHandle | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = this.options.timers.setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      timer.unref?.();
    });
    // A late answer (or failure) of the abandoned query is ignored.
    answer.catch(() => undefined);
    return Promise.race([answer, late]).finally(() => {
      if (timer) this.options.timers.clearTimeout(timer);
    });
  }

  /** Moves to a state, telling the host once per change (a first check that finds the standby ready says nothing). */
  private enter(state: ReplicaState, problem: string | undefined): void {
    this.#state = state;
    this.#problem = problem;
    if (state === this.#announced || (state === 'ready' && this.#announced === undefined)) {
      this.#announced = state;
      return;
    }
    this.#announced = state;
    if (state === 'ready') {
      this.options.events.onRecovered?.('the read replica serves reads again', { lagSeconds: this.#lagMs / 1000 });
    } else {
      this.options.events.onWarning?.(`the read replica serves no reads: ${problem}; the primary answers them`, { state });
    }
  }

  private now(): number {
    return this.options.elapsedMs();
  }
}
