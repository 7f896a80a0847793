import { checkScope } from '../domain/memory-limits.js';
import {
  assertCanCancel,
  assertCanRetry,
  checkJobId,
  checkReindexRequest,
  type ReindexJob,
  type ReindexOptions,
  type ReindexRequest,
} from '../domain/reindex-rules.js';
import { toTenantId } from '../domain/tenant.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { AuthSweepCounts, LifecycleStore } from '../ports/lifecycle-store.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { ProgressListener } from '../ports/progress.js';
import type { ReindexJobQueue, ReindexStore } from '../ports/reindex-store.js';
import type { ReviewStore } from '../ports/review-store.js';
import type { Tracer } from '../ports/tracer.js';
import { approveConsolidation, type ConsolidationApproval, type ConsolidationApprovalInput } from './approve-consolidation.js';
import type { CallContext } from './engine-parts.js';
import { type FadingMemoryPage, listFadingMemories } from './fading-memories.js';
import {
  type CorpusConsolidationResult,
  consolidateCorpus,
  type DecayScanOptions,
  type DecayScanResult,
  decayScan,
  type LifecycleSettings,
  type PromotionPassResult,
  promoteQualified,
  sweepExpiredShortTerm,
} from './lifecycle-jobs.js';
import { type ReindexControl, type ReindexRunResult, runReindex } from './reindex.js';
import { type ContradictionResolution, type ResolveContradictionInput, resolveContradiction } from './resolve-contradiction.js';

/** Counters the composing app turns into metrics (spec §4.2). */
export interface MaintenanceEvents {
  /** memsvc_memories_promoted_total */
  readonly promoted?: (count: number) => void;
  /** memsvc_consolidation_runs_total{status}: a promotion pass, `partial` when some memory failed. */
  readonly consolidationRun?: (status: 'success' | 'partial') => void;
  /** memsvc_reindex_operations_total{status}, with a job's end states for synchronous runs too. */
  readonly reindex?: (status: 'completed' | 'failed' | 'cancelled') => void;
}

export interface MaintenanceOptions {
  readonly lifecycle: LifecycleStore;
  readonly memories: MemoryStore;
  readonly reindexStore: ReindexStore;
  readonly jobs: ReindexJobQueue;
  /** What the review queue reads: contradicted pairs and fading memories. */
  readonly review: ReviewStore;
  readonly embedder: Embedder;
  readonly clock: Clock;
  readonly settings: LifecycleSettings;
  readonly events?: MaintenanceEvents;
  /** A synchronous reindex's `memory.reindex` span; default: none. */
  readonly tracer?: Tracer;
}

/**
 * The upkeep of memories: the scheduled jobs, the admin tools, the reindex CLI and its job
 * runner, and the review queue where a person decides what upkeep proposes (fading memories,
 * contradicted pairs, merges) — with their input checks in one place. Which caller may run them
 * (the admin token, the signed-in viewer) is the edge's business; what they do is here.
 */
export class Maintenance {
  constructor(private readonly options: MaintenanceOptions) {}

  /**
   * The short-term → long-term promotion pass, now (consolidate_memories; the scheduled job).
   * Only the scheduler's passes are reported to `events`: spec §4.2's promotion and consolidation
   * counters are the scheduler's work, and an operator's manual run is not.
   */
  async promoteShortTerm(
    input: { userId?: string | undefined; scheduled?: boolean; onProgress?: ProgressListener | undefined } = {},
  ): Promise<PromotionPassResult> {
    const tenant = input.userId === undefined ? undefined : toTenantId(input.userId, 'userId');
    const result = await promoteQualified(this.lifecycleDependencies, {
      ...(tenant === undefined ? {} : { tenant }),
      onProgress: input.onProgress,
    });
    if (input.scheduled !== true) return result;
    if (result.promoted > 0) this.options.events?.promoted?.(result.promoted);
    this.options.events?.consolidationRun?.(result.failed > 0 ? 'partial' : 'success');
    return result;
  }

  /** Near-duplicate merging (consolidate_corpus; the opt-in scheduled job). Dry run unless `dryRun: false`. */
  consolidateCorpus(input: {
    userId?: string | undefined;
    scope?: string | undefined;
    dryRun?: boolean | undefined;
    limit?: number | undefined;
    cursor?: string | undefined;
    onProgress?: ProgressListener | undefined;
  }): Promise<CorpusConsolidationResult> {
    return consolidateCorpus(this.lifecycleDependencies, {
      tenant: input.userId === undefined ? undefined : toTenantId(input.userId, 'userId'),
      scope: input.scope === undefined ? undefined : (checkScope(input.scope) ?? undefined),
      dryRun: input.dryRun,
      limit: input.limit,
      cursor: input.cursor === undefined ? undefined : checkReindexRequest({ cursor: input.cursor }).cursor,
      onProgress: input.onProgress,
    });
  }

  sweepExpiredShortTerm(): Promise<number> {
    return sweepExpiredShortTerm(this.lifecycleDependencies);
  }

  decayScan(options: DecayScanOptions = {}): Promise<DecayScanResult> {
    return decayScan(this.lifecycleDependencies, options);
  }

  /** A scheduled job's saved position (corpus consolidation continues where its last pass stopped). */
  jobCursor(job: string): Promise<string | undefined> {
    return this.options.lifecycle.jobCursor(job);
  }

  saveJobCursor(job: string, cursor: string | undefined): Promise<void> {
    return this.options.lifecycle.saveJobCursor(job, cursor);
  }

  sweepAuthStore(): Promise<AuthSweepCounts> {
    return this.options.lifecycle.sweepAuthStore(this.options.clock.now());
  }

  /** A synchronous reindex (reindex_memories, memsvc-reindex). */
  async reindex(request: ReindexRequest, onBatch?: (progress: ReindexRunResult) => void): Promise<ReindexRunResult> {
    const options = checkReindexRequest(request);
    try {
      const { reindexStore: store, embedder, tracer } = this.options;
      const result = await runReindex({ store, embedder, tracer }, options, {
        onBatch: onBatch ? (progress) => onBatch({ ...progress, stoppedBy: 'end' }) : undefined,
      });
      this.options.events?.reindex?.('completed');
      return result;
    } catch (error) {
      this.options.events?.reindex?.('failed');
      throw error;
    }
  }

  /** Queues a reindex job (queue_reindex_memories); options are checked now, not when it runs. */
  queueReindex(request: ReindexRequest, requestedBy: string): Promise<ReindexJob> {
    return this.options.jobs.enqueue(checkReindexRequest(request), requestedBy);
  }

  async reindexStatus(jobId: string): Promise<ReindexJob> {
    const id = checkJobId(jobId);
    const job = await this.options.jobs.find(id);
    if (!job) throw new MemsvcError('NOT_FOUND', `reindex job ${jobId} was not found`, { jobId });
    return job;
  }

  async cancelReindex(jobId: string): Promise<ReindexJob> {
    assertCanCancel(await this.reindexStatus(jobId));
    return this.options.jobs.requestCancel(checkJobId(jobId));
  }

  async retryReindex(jobId: string): Promise<ReindexJob> {
    assertCanRetry(await this.reindexStatus(jobId));
    return this.options.jobs.retry(checkJobId(jobId));
  }

  /** The caller's fading memories, lowest score first: what the decay scan marks or deletes (the review queue). */
  fadingMemories(context: CallContext, query: { readonly limit: number; readonly cursor?: string | undefined }): Promise<FadingMemoryPage> {
    const { review, clock, settings } = this.options;
    return listFadingMemories({ review, clock, rules: settings.decay }, context, query);
  }

  /** A person's decision on a contradicted pair of their memories: keep both, the newer, or the older. */
  resolveContradiction(context: CallContext, input: ResolveContradictionInput): Promise<ContradictionResolution> {
    return resolveContradiction({ review: this.options.review, memories: this.options.memories }, context, input);
  }

  /** Merges the clusters a person approved after a consolidation dry run, exactly as they were shown. */
  approveConsolidation(context: CallContext, input: ConsolidationApprovalInput): Promise<ConsolidationApproval> {
    const { lifecycle, settings } = this.options;
    const band = { mergeThreshold: settings.mergeThreshold, duplicateThreshold: settings.similarity.duplicateThreshold };
    return approveConsolidation({ lifecycle, band }, context, input);
  }

  /**
   * One run of a queued reindex job, driven by its runner (progress saved with each batch, a stop
   * honoured between batches). The runner reports how the job ended; `events` are not told.
   */
  runReindexJob(options: ReindexOptions, control: ReindexControl): Promise<ReindexRunResult> {
    const { reindexStore: store, embedder, tracer } = this.options;
    return runReindex({ store, embedder, tracer }, options, control);
  }

  private get lifecycleDependencies() {
    const { lifecycle, memories, clock, settings, embedder } = this.options;
    return { lifecycle, memories, clock, settings, embedder };
  }
}
