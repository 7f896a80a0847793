import { type Clock, type Maintenance, NO_TRACING, systemClock, type TimerHandle, type Timers, type Tracer } from '@memsvc/core';
import type { JobRuns } from '@memsvc/store-pg';
import type { Logger } from './logger.js';
import { scheduledJobWork } from './scheduled-job-work.js';
import type { ScheduledJob } from './scheduled-jobs.js';
import { systemTimers } from './system-timers.js';

/** A run that ended, for observers (tests, metrics). */
export interface JobRunReport {
  readonly job: string;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly ok: boolean;
}

/**
 * Runs each enabled job on its interval. A tick asks JobRuns to run the job exclusively: with
 * several workers (or a worker and an in-process server) on one database, each job still runs
 * once per interval. The first tick comes after a random fraction of the interval, so replicas
 * started together do not all wake at once; a slow run never overlaps its own next tick.
 */
export class Scheduler {
  readonly #timers = new Set<TimerHandle>();
  readonly #running = new Set<Promise<unknown>>();
  #stopped = false;
  /** Aborted by stop(): a long run (the decay pass) ends after the batch in hand. */
  readonly #stopping = new AbortController();
  readonly #clock: Clock;
  readonly #waits: Timers;

  constructor(
    private readonly deps: {
      readonly jobs: readonly ScheduledJob[];
      readonly jobRuns: JobRuns;
      readonly maintenance: Maintenance;
      readonly logger: Logger;
      readonly onRun?: (report: JobRunReport) => void;
      /** Let the process exit while only timers are pending (in-process use); default false. */
      readonly unref?: boolean;
      /** First tick after this many ms instead of a random fraction of the interval (tests). */
      readonly firstTickMs?: number;
      /** How the scheduler waits between ticks; the host's timers by default. */
      readonly timers?: Timers;
      /** The clock of the run reports; the system's by default. */
      readonly clock?: Clock;
      /** A span per run, `job <name>`: only for a tick that runs the job, so idle ticks leave no trace. */
      readonly tracer?: Tracer;
    },
  ) {
    this.#clock = deps.clock ?? systemClock;
    this.#waits = deps.timers ?? systemTimers;
  }

  start(): void {
    for (const job of this.deps.jobs.filter((candidate) => candidate.enabled)) {
      const body = scheduledJobWork(job.name, this.deps.maintenance, this.deps.logger, this.#stopping.signal);
      this.schedule(job, body, this.deps.firstTickMs ?? Math.random() * job.intervalMs);
    }
  }

  /**
   * Stops ticking at once (no run starts after this call) and waits for runs in progress to
   * finish (a decay pass stops after its batch in hand).
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#stopping.abort();
    for (const timer of this.#timers) this.#waits.clearTimeout(timer);
    this.#timers.clear();
    await this.idle();
  }

  /** Waits until no run is in progress (the next ticks stay scheduled). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  private schedule(job: ScheduledJob, body: () => Promise<string>, delayMs: number): void {
    if (this.#stopped) return;
    const timer = this.#waits.setTimeout(() => {
      this.#timers.delete(timer);
      // A timer that fired in the same turn as stop() (a job due right at SIGTERM) starts nothing.
      if (this.#stopped) return;
      const run = this.tick(job, body).finally(() => {
        this.#running.delete(run);
        this.schedule(job, body, job.intervalMs);
      });
      this.#running.add(run);
    }, delayMs);
    if (this.deps.unref) timer.unref?.();
    this.#timers.add(timer);
  }

  private async tick(job: ScheduledJob, body: () => Promise<string>): Promise<void> {
    const startedAt = this.#clock.now().getTime();
    try {
      const tracer = this.deps.tracer ?? NO_TRACING;
      const outcome = await this.deps.jobRuns.runExclusive(job.name, job.intervalMs, async () => {
        // stop() may come while the job's lock was being taken: a stopping process starts no work.
        if (this.#stopped) return 'stopped';
        this.deps.logger.debug({ job: job.name }, 'scheduled job started');
        return tracer.inSpan(`job ${job.name}`, { 'memsvc.job.name': job.name }, body);
      });
      if (outcome.ran) this.deps.onRun?.({ job: job.name, startedAt, finishedAt: this.#clock.now().getTime(), ok: true });
    } catch (error) {
      this.deps.logger.error({ job: job.name, err: error }, 'scheduled job failed');
      this.deps.onRun?.({ job: job.name, startedAt, finishedAt: this.#clock.now().getTime(), ok: false });
    }
  }
}
