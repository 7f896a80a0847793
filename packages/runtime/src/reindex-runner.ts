import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { JobOwnershipLost, type Maintenance, type ReindexJob, type ReindexJobQueue } from '@memsvc/core';
import { isTransientDatabaseError } from '@memsvc/store-pg';
import type { Logger } from './logger.js';

export interface ReindexRunnerOptions {
  readonly jobs: ReindexJobQueue;
  /** Runs each job's batches (Maintenance.runReindexJob), with the reindex span when it has a tracer. */
  readonly maintenance: Maintenance;
  readonly logger: Logger;
  /** Identifies this runner in the job row (default: host, pid and a random suffix). */
  readonly runnerId?: string;
  /** How often an idle runner looks for a queued job (default 1 s). */
  readonly pollMs?: number;
  /** How often a running job's heartbeat is saved, besides after every batch (default 5 s). */
  readonly heartbeatMs?: number;
  /** A running job silent this long has lost its runner: it becomes failed, retryable (default 30 s). */
  readonly abandonAfterMs?: number;
  /** Every job this runner ends, with how it ended (metrics). */
  readonly onFinished?: (job: ReindexJob, state: 'completed' | 'failed' | 'cancelled') => void;
  readonly unref?: boolean;
}

/** Attempts of one storage call while the database is unreachable: ~15 s in all. */
const TRANSIENT_ATTEMPTS = 7;

/**
 * Runs queued reindex jobs, one at a time across every runner (the database refuses a second
 * running job). Each batch's vectors and progress commit together; a heartbeat shows the runner
 * is alive, and any runner declares a job whose runner went silent failed, so it can be retried
 * from its saved cursor. A database restart mid-job is waited out; on shutdown the job in hand
 * stops after its batch and goes back to the queue for the next runner.
 */
export class ReindexRunner {
  readonly runnerId: string;
  #timer: NodeJS.Timeout | undefined;
  #current: Promise<unknown> | undefined;
  #stopping = false;

  constructor(private readonly options: ReindexRunnerOptions) {
    this.runnerId = options.runnerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  start(): void {
    const poll = () => {
      if (this.#stopping) return;
      this.#current = this.runOnce()
        .catch((error: unknown) => this.options.logger.error({ err: error }, 'reindex runner poll failed'))
        .finally(() => {
          this.#current = undefined;
          if (this.#stopping) return;
          this.#timer = setTimeout(poll, this.options.pollMs ?? 1000);
          if (this.options.unref) this.#timer.unref();
        });
    };
    poll();
  }

  /** Stops polling; a job in hand stops after its current batch and is queued again. */
  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#current;
  }

  /** Recovers abandoned jobs, then claims and runs one queued job; false when there was none. */
  async runOnce(): Promise<boolean> {
    const abandoned = await this.options.jobs.failAbandoned(this.options.abandonAfterMs ?? 30_000);
    for (const job of abandoned) {
      this.options.logger.warn(
        { jobId: job.jobId, cursor: job.progress.cursor },
        'reindex job lost its runner: marked failed, retry continues from its cursor',
      );
      this.options.onFinished?.(job, 'failed');
    }
    const job = await this.options.jobs.claimNext(this.runnerId);
    if (!job) return false;
    await this.run(job);
    return true;
  }

  private async run(job: ReindexJob): Promise<void> {
    const { jobs, logger } = this.options;
    logger.info({ jobId: job.jobId, attempt: job.attempts, cursor: job.progress.cursor }, 'reindex job started');
    let lost = false;
    const heartbeat = setInterval(() => {
      jobs.heartbeat(job.jobId, this.runnerId).then(
        (mine) => {
          if (!mine) lost = true;
        },
        () => undefined,
      );
    }, this.options.heartbeatMs ?? 5000);
    heartbeat.unref();
    try {
      const result = await this.options.maintenance.runReindexJob(job.options, {
        job: { jobId: job.jobId, runnerId: this.runnerId },
        resumeFrom: job.progress,
        shouldStop: () => this.#stopping || lost,
        retry: (work) => retryTransient(work, logger),
      });
      if (result.stoppedBy === 'stopped') {
        if (!lost) await retryTransient(() => jobs.release(job.jobId, this.runnerId), logger);
        logger.info({ jobId: job.jobId, cursor: result.cursor }, 'reindex job paused for shutdown: queued again');
        return;
      }
      const state = result.stoppedBy === 'cancelled' ? 'cancelled' : 'completed';
      await retryTransient(() => jobs.finish(job.jobId, this.runnerId, { state }), logger);
      logger.info({ jobId: job.jobId, state, ...result }, 'reindex job finished');
      this.options.onFinished?.(job, state);
    } catch (error) {
      if (error instanceof JobOwnershipLost) {
        logger.warn({ jobId: job.jobId }, 'reindex job was taken from this runner (declared dead or cancelled): stopped without writing');
        return;
      }
      const message = (error as Error).message ?? String(error);
      await retryTransient(() => jobs.finish(job.jobId, this.runnerId, { state: 'failed', error: message }), logger).catch(() => undefined);
      logger.error({ jobId: job.jobId, err: error }, 'reindex job failed');
      this.options.onFinished?.(job, 'failed');
    } finally {
      clearInterval(heartbeat);
    }
  }
}

/** Runs `work`, retrying while the database is unreachable (restart, failover), with backoff. */
async function retryTransient<T>(work: () => Promise<T>, logger: Logger): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isTransientDatabaseError(error) || attempt >= TRANSIENT_ATTEMPTS) throw error;
      const delayMs = 250 * 2 ** (attempt - 1);
      logger.warn({ attempt, delayMs, err: error }, 'database unreachable during a reindex job: retrying');
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
