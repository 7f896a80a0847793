import { MemsvcError } from '../errors/memsvc-error.js';
import { type TenantId, toTenantId } from './tenant.js';

/** Spec §4.3 / §8: memories per reindex batch. */
export const REINDEX_BATCH_SIZE = { min: 1, max: 1000, default: 100 } as const;
/** Largest `maxMemories` accepted (a cap far above any real corpus, so typos are caught). */
export const REINDEX_MAX_MEMORIES = 100_000_000;

/** A reindex run's options after checking (spec §4.3 `reindex_memories`, §4.4 `memsvc-reindex`). */
export interface ReindexOptions {
  /** One tenant; every tenant when undefined. */
  readonly tenant: TenantId | undefined;
  readonly batchSize: number;
  /** Keep a stored vector made by the current model instead of computing it again. */
  readonly reuseExistingEmbeddings: boolean;
  /** Drop the vector index first (and retype the column on a dimension change), rebuild it at the end. */
  readonly recreate: boolean;
  /** Resume after this memory id. */
  readonly cursor: string | undefined;
  readonly maxMemories: number | undefined;
}

/** What a caller may ask for, before checking. */
export interface ReindexRequest {
  readonly userId?: string | undefined;
  readonly batchSize?: number | undefined;
  readonly reuseExistingEmbeddings?: boolean | undefined;
  readonly recreate?: boolean | undefined;
  readonly cursor?: string | undefined;
  readonly maxMemories?: number | undefined;
}

/** Counts of a reindex run (spec §2.3) and where the next run would continue. */
export interface ReindexSummary {
  /** Memories looked at. */
  readonly processed: number;
  /** Memories that now carry a vector computed (or, in a recreate, re-indexed) by this run. */
  readonly indexed: number;
  /** Memories that kept the vector they had (reuseExistingEmbeddings) and needed nothing. */
  readonly skipped: number;
  /** Memories for which the provider gave no vector; they keep what they had and a later run retries them. */
  readonly failed: number;
  /** The last memory id done; pass it as `cursor` to continue. Null once the run reached the end. */
  readonly cursor: string | null;
}

export const EMPTY_REINDEX_SUMMARY: ReindexSummary = Object.freeze({ processed: 0, indexed: 0, skipped: 0, failed: 0, cursor: null });

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks a reindex request, with a typed INVALID_INPUT naming the field for each problem:
 * R-REINDEX-1 batch size 1–1000; the cursor a memory id; `maxMemories` a positive whole number;
 * R-REINDEX-2 `recreate` only on an unscoped full run (no userId, cursor or maxMemories) — an
 * earlier implementation ignored it silently on scoped runs; memsvc refuses instead.
 */
export function checkReindexRequest(request: ReindexRequest): ReindexOptions {
  const batchSize = request.batchSize ?? REINDEX_BATCH_SIZE.default;
  if (!Number.isInteger(batchSize) || batchSize < REINDEX_BATCH_SIZE.min || batchSize > REINDEX_BATCH_SIZE.max) {
    throw invalid(
      'batchSize',
      `batchSize must be a whole number from ${REINDEX_BATCH_SIZE.min} to ${REINDEX_BATCH_SIZE.max} (got ${batchSize})`,
    );
  }
  const maxMemories = request.maxMemories;
  if (maxMemories !== undefined && (!Number.isInteger(maxMemories) || maxMemories < 1 || maxMemories > REINDEX_MAX_MEMORIES)) {
    throw invalid('maxMemories', `maxMemories must be a whole number from 1 to ${REINDEX_MAX_MEMORIES} (got ${maxMemories})`);
  }
  const cursor = request.cursor === undefined || request.cursor === '' ? undefined : request.cursor;
  if (cursor !== undefined && !UUID_PATTERN.test(cursor)) {
    throw invalid('cursor', 'cursor must be a memory id returned by a previous run (a UUID)');
  }
  const tenant = request.userId === undefined ? undefined : toTenantId(request.userId, 'userId');
  const recreate = request.recreate ?? false;
  if (recreate && (tenant !== undefined || cursor !== undefined || maxMemories !== undefined)) {
    throw invalid(
      'recreate',
      'recreate rebuilds the whole vector index, so it needs an unscoped full run: leave out userId, cursor and maxMemories',
    );
  }
  return {
    tenant,
    batchSize,
    reuseExistingEmbeddings: request.reuseExistingEmbeddings ?? true,
    recreate,
    cursor: cursor?.toLowerCase(),
    maxMemories,
  };
}

/** The states of spec §3.1. */
export const REINDEX_JOB_STATES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type ReindexJobState = (typeof REINDEX_JOB_STATES)[number];

/** A persisted reindex job (spec §2.2). */
export interface ReindexJob {
  readonly jobId: string;
  readonly state: ReindexJobState;
  readonly options: ReindexOptions;
  readonly progress: ReindexSummary;
  readonly cancelRequested: boolean;
  readonly error: string | null;
  /** How many times the job was started (1 on its first run; retries add one). */
  readonly attempts: number;
  readonly requestedBy: string | null;
  readonly createdAt: Date;
  readonly startedAt: Date | null;
  readonly finishedAt: Date | null;
  readonly heartbeatAt: Date | null;
}

/**
 * R-JOB-1, the transitions (spec §3.1 leaves them to us):
 *   queued → running (a runner claims it; one running job at a time across all workers)
 *   queued → cancelled (cancel)          running → cancelled (cancel, honoured between batches)
 *   running → completed | failed         running → failed (its runner died: no heartbeat)
 *   failed | cancelled → queued (retry; keeps the cursor and the counts)
 * Cancel of a finished job and retry of a queued, running or completed one are CONFLICT errors.
 */
export function assertCanCancel(job: Pick<ReindexJob, 'jobId' | 'state'>): void {
  if (job.state === 'queued' || job.state === 'running') return;
  throw new MemsvcError('CONFLICT', `reindex job ${job.jobId} is already ${job.state}; only a queued or running job can be cancelled`, {
    jobId: job.jobId,
    state: job.state,
  });
}

/** See assertCanCancel: only a failed or cancelled job can be retried. */
export function assertCanRetry(job: Pick<ReindexJob, 'jobId' | 'state'>): void {
  if (job.state === 'failed' || job.state === 'cancelled') return;
  throw new MemsvcError(
    'CONFLICT',
    `reindex job ${job.jobId} is ${job.state}; only a failed or cancelled job can be retried (it continues from its saved cursor)`,
    { jobId: job.jobId, state: job.state },
  );
}

/** Checks a job id argument. */
export function checkJobId(jobId: string): string {
  if (!UUID_PATTERN.test(jobId)) throw invalid('jobId', 'jobId must be the id queue_reindex_memories returned (a UUID)');
  return jobId.toLowerCase();
}

function invalid(field: string, message: string): MemsvcError {
  return new MemsvcError('INVALID_INPUT', message, { field });
}
