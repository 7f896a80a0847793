import type { ReindexJob, ReindexOptions, ReindexSummary } from '../domain/reindex-rules.js';
import type { TenantId } from '../domain/tenant.js';

/** One memory as a reindex sees it. */
export interface ReindexRow {
  readonly id: string;
  readonly tenant: TenantId;
  /** The text its vector is computed from (search context, then content), as at write time. */
  readonly text: string;
  readonly hasEmbedding: boolean;
  readonly embeddingModel: string | null;
}

/** A vector to store. */
export interface VectorWrite {
  readonly id: string;
  readonly vector: readonly number[];
  readonly model: string;
}

/** The job whose progress a batch saves, and the runner that must still own it. */
export interface JobCheckpoint {
  readonly jobId: string;
  readonly runnerId: string;
  readonly progress: ReindexSummary;
  /** The cursor the job must be at: the batch before this one is saved (batches commit in order). */
  readonly previousCursor: string | null;
  /** Settles once the previous batch's save has committed or failed; the checkpoint is written after it. */
  readonly ready?: Promise<unknown>;
}

/** Raised when a runner saves a batch of a job it no longer owns (cancelled elsewhere, or declared dead). */
export class JobOwnershipLost extends Error {
  override readonly name = 'JobOwnershipLost';
}

/** Raised when a batch's checkpoint arrives before the previous batch's has committed; nothing is written. */
export class CheckpointOutOfOrder extends Error {
  override readonly name = 'CheckpointOutOfOrder';
}

/**
 * Vector storage as the reindex needs it. `saveBatch` is the heart: vectors and the job's
 * progress commit together, so a run killed at any point has either saved a batch and its cursor
 * or neither, and a retry continues without redoing or skipping a memory.
 */
export interface ReindexStore {
  /** Live memories in id order after `after` (optionally one tenant), at most `limit`. */
  batch(query: {
    readonly tenant: TenantId | undefined;
    readonly after: string | undefined;
    readonly limit: number;
  }): Promise<readonly ReindexRow[]>;

  /**
   * Writes the vectors (a vector equal to the stored one is not rewritten) and, for a job, its
   * cursor, counts and heartbeat, in one transaction. Returns whether cancellation was requested.
   * Throws JobOwnershipLost, writing nothing, when the job is no longer this runner's, and
   * CheckpointOutOfOrder when the job is not at `previousCursor`. Two saves may run at once; the
   * later one's checkpoint waits for the earlier one's commit.
   */
  saveBatch(writes: readonly VectorWrite[], checkpoint: JobCheckpoint | undefined): Promise<{ readonly cancelRequested: boolean }>;

  /**
   * Drops the vector index; when the dimensionality changes, also drops every stored vector and
   * retypes the column (the database is the source of truth for content, not for vectors).
   */
  dropVectorIndex(newSpace: { readonly dimensions: number; readonly model: string } | undefined): Promise<void>;

  /**
   * Before a backfill (a run that is not a recreate): takes the vector index off the parts of it
   * this run would mostly build row by row — where the memories still without a vector are at
   * least as many as those with one — so that ensureVectorIndex builds them once at the end,
   * far cheaper than inserting into a live graph row after row. Searches there stay exact
   * meanwhile (a scan instead of the index). Returns whether anything was taken off; if so, the
   * run calls ensureVectorIndex however it ends.
   */
  prepareBackfill(scope: { readonly tenant: TenantId | undefined }): Promise<boolean>;

  /** Builds the vector index if it is missing (after a recreate or a backfill, or one that was interrupted). */
  ensureVectorIndex(): Promise<void>;
}

/** Reindex jobs as rows (spec §2.2): the queue every worker shares. */
export interface ReindexJobQueue {
  enqueue(options: ReindexOptions, requestedBy: string): Promise<ReindexJob>;
  find(jobId: string): Promise<ReindexJob | undefined>;
  /** The newest jobs in any state, newest first, at most `limit` (the operations page's list). */
  recent(limit: number): Promise<readonly ReindexJob[]>;
  /** A queued job becomes cancelled; a running one gets cancelRequested (honoured between batches). */
  requestCancel(jobId: string): Promise<ReindexJob>;
  /** A failed or cancelled job is queued again, keeping its cursor and counts. */
  retry(jobId: string): Promise<ReindexJob>;
  /** Claims the oldest queued job for `runnerId`, unless a job is running anywhere. */
  claimNext(runnerId: string): Promise<ReindexJob | undefined>;
  /** Marks the runner alive; false when the job is no longer this runner's. */
  heartbeat(jobId: string, runnerId: string): Promise<boolean>;
  /** Puts a running job of this runner back in the queue (its runner is shutting down); it keeps its cursor. */
  release(jobId: string, runnerId: string): Promise<void>;
  /** Ends a running job of this runner. */
  finish(
    jobId: string,
    runnerId: string,
    outcome: { readonly state: 'completed' | 'failed' | 'cancelled'; readonly error?: string },
  ): Promise<void>;
  /**
   * Running jobs whose runner has been silent (no heartbeat) for `silentForMs`, by the database's
   * clock, become failed — their runner died; a retry continues from the saved cursor. Returns them.
   */
  failAbandoned(silentForMs: number): Promise<readonly ReindexJob[]>;
}
