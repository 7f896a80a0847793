import type { MemsvcConfig } from '@memsvc/config';
import type { Maintenance, Tracer } from '@memsvc/core';
import type { MemsvcStore } from '@memsvc/store-pg';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { ReindexRunner, type ReindexRunnerOptions } from './reindex-runner.js';
import { scheduledJobs } from './scheduled-jobs.js';
import { type JobRunReport, Scheduler } from './scheduler.js';

/** How the jobs run, beyond what the configuration says. */
export interface StartJobsOptions {
  /** Let the process exit while only job timers are pending (in-process use). */
  unref?: boolean;
  onRun?: (report: JobRunReport) => void;
  runner?: Partial<Pick<ReindexRunnerOptions, 'pollMs' | 'heartbeatMs' | 'abandonAfterMs' | 'onFinished' | 'runnerId'>>;
}

/** The scheduler and the reindex runner, running. */
export interface RunningJobs {
  readonly scheduler: Scheduler;
  readonly runner: ReindexRunner;
  /** Stops both; a reindex job in hand is queued again after its current batch. */
  stop(): Promise<void>;
}

/**
 * Starts the five scheduled jobs and the reindex-job runner over an open store: the body of
 * `memsvc-worker`, and what the server runs in-process when MEMSVC_SERVER_JOBS says so (by
 * default on the lite profile or an embedded database).
 */
export function startJobs(
  deps: {
    config: MemsvcConfig;
    store: MemsvcStore;
    maintenance: Maintenance;
    logger: Logger;
    /** Counts every reindex job's end in memsvc_reindex_operations_total. */
    metrics?: Metrics;
    /** A span per job run (`job <name>`, `memory.reindex`), with the run's statements inside. */
    tracer?: Tracer;
  } & StartJobsOptions,
): RunningJobs {
  const scheduler = new Scheduler({
    jobs: scheduledJobs(deps.config),
    jobRuns: deps.store.jobRuns,
    maintenance: deps.maintenance,
    logger: deps.logger,
    ...(deps.unref ? { unref: true } : {}),
    ...(deps.onRun ? { onRun: deps.onRun } : {}),
    ...(deps.tracer ? { tracer: deps.tracer } : {}),
  });
  const runner = new ReindexRunner({
    jobs: deps.store.reindexJobs,
    maintenance: deps.maintenance,
    logger: deps.logger,
    ...(deps.unref ? { unref: true } : {}),
    ...(deps.metrics ? { onFinished: countReindex(deps.metrics) } : {}),
    ...deps.runner,
  });
  scheduler.start();
  runner.start();
  return {
    scheduler,
    runner,
    stop: async () => {
      await Promise.all([scheduler.stop(), runner.stop()]);
    },
  };
}

function countReindex(metrics: Metrics): NonNullable<ReindexRunnerOptions['onFinished']> {
  return (_job, state) => metrics.reindexOperations.inc({ status: state });
}
