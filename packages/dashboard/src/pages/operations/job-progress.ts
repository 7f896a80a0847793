import { type ReindexJob, type ReindexJobJson, reindexJobJson } from '@memsvc/core';
import type { PgOperationsReads } from '@memsvc/store-pg';

/** A reindex job as the operations page shows it and `/operations/reindex/<id>.json` returns it: the tools' JSON, the requester, and a percentage. */
export type JobView = ReindexJobJson & {
  /** 0–100 for the progress bar; undefined when there is nothing to measure against (a failed or cancelled job not counted yet). */
  readonly percent: number | undefined;
  /** The memories the job's walk covers, as counted when the page first saw it (an estimate). */
  readonly total: number | undefined;
  readonly requestedBy: string | null;
};

/** Where a progress bar's count stops: past a million memories the bar is a rough guide anyway. */
const WALK_COUNT_MAX = 1_000_000;
/** Jobs whose walk size this process remembers (a page shows 20; jobs are few). */
const TOTALS_KEPT = 64;

/**
 * A job's progress as a percentage. The job row knows how many memories it has processed but not
 * how many there are, so the walk's size is counted once per job and kept: a page refreshing a
 * running job every second must not count the corpus every second. Memories written meanwhile
 * make it an estimate, so a job that has not completed never shows more than 99 %.
 */
export class ReindexProgress {
  readonly #totals = new Map<string, number>();

  constructor(private readonly reads: Pick<PgOperationsReads, 'countReindexWalk'>) {}

  /** The job with its percentage (counting its walk the first time an active job is seen). */
  async view(job: ReindexJob): Promise<JobView> {
    const total = await this.totalOf(job);
    return { ...reindexJobJson(job), percent: percentOf(job, total), total, requestedBy: job.requestedBy };
  }

  /** The walk's size: counted for a job that is queued or running, remembered for later states. */
  private async totalOf(job: ReindexJob): Promise<number | undefined> {
    const known = this.#totals.get(job.jobId);
    if (known !== undefined || (job.state !== 'queued' && job.state !== 'running')) return known;
    const total = await this.reads.countReindexWalk({
      tenant: job.options.tenant,
      after: job.options.cursor,
      limit: job.options.maxMemories ?? WALK_COUNT_MAX,
    });
    this.#totals.set(job.jobId, total);
    if (this.#totals.size > TOTALS_KEPT) this.#totals.delete(this.#totals.keys().next().value as string);
    return total;
  }
}

function percentOf(job: ReindexJob, total: number | undefined): number | undefined {
  if (job.state === 'completed') return 100;
  if (total === undefined) return undefined;
  return Math.min(99, Math.floor((job.progress.processed * 100) / Math.max(1, total)));
}
