import { EMPTY_REINDEX_SUMMARY, type ReindexOptions, type ReindexSummary } from '../domain/reindex-rules.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { Embedder } from '../ports/embedder.js';
import { CheckpointOutOfOrder, type ReindexRow, type ReindexStore, type VectorWrite } from '../ports/reindex-store.js';
import { NO_TRACING, type Tracer } from '../ports/tracer.js';
import { databaseStage, embedInSpan } from './traced-stages.js';

export interface ReindexDependencies {
  readonly store: ReindexStore;
  readonly embedder: Embedder;
  /** A `memory.reindex` span, with an embed and database stage per batch; default: none. */
  readonly tracer?: Tracer | undefined;
}

/** How a run is driven: as a job (progress saved with each batch) or directly (tool, CLI). */
export interface ReindexControl {
  /** Job mode: the job and runner whose progress each batch saves; the run stops if the job is lost or cancelled. */
  readonly job?: { readonly jobId: string; readonly runnerId: string } | undefined;
  /** Counts and cursor to continue from (a retried job's saved progress). */
  readonly resumeFrom?: ReindexSummary | undefined;
  /** Called after every saved batch. */
  readonly onBatch?: ((progress: ReindexSummary) => void) | undefined;
  /** Checked between batches: true stops the run after the batch in hand (a runner shutting down). */
  readonly shouldStop?: (() => boolean) | undefined;
  /** Batch writes in flight at once (default 2; 1 writes batch after batch). */
  readonly pipelineDepth?: number | undefined;
  /** Wraps each storage call, e.g. to retry it while the database restarts. */
  readonly retry?: (<T>(work: () => Promise<T>) => Promise<T>) | undefined;
}

/** Why a run stopped. */
export type ReindexStop = 'end' | 'max-memories' | 'cancelled' | 'stopped';

export interface ReindexRunResult extends ReindexSummary {
  readonly stoppedBy: ReindexStop;
}

/** Two writes in flight: one connection inserting into the HNSW graph while the next batch is prepared and sent. */
const PIPELINE_DEPTH = 2;

/** Text used to learn a new model's dimensionality before a recreate drops the old vectors. */
const DIMENSION_PROBE = 'memsvc dimension probe';

/**
 * The reindex of spec §4.3/§4.4: walks live memories in id order after the cursor, in batches;
 * with `reuseExistingEmbeddings` a memory whose vector was made by the current model is skipped,
 * every other one gets a vector computed from the text it was written with. Each batch's vectors
 * and the progress are saved together (ReindexStore.saveBatch). With `recreate` the vector index
 * is dropped first — and on a dimension change the old vectors with it, after the new size is
 * known — and rebuilt once at the end, which is far cheaper than updating it row by row.
 */
export function runReindex(deps: ReindexDependencies, options: ReindexOptions, control: ReindexControl = {}): Promise<ReindexRunResult> {
  const tracer = deps.tracer ?? NO_TRACING;
  const attributes = {
    'memsvc.reindex.job_id': control.job?.jobId,
    'memsvc.reindex.recreate': options.recreate,
    'memsvc.reindex.reuse_existing': options.reuseExistingEmbeddings,
    'memsvc.reindex.batch_size': options.batchSize,
    'memsvc.reindex.max_memories': options.maxMemories,
    'memsvc.reindex.resumed': control.resumeFrom !== undefined && control.resumeFrom.cursor !== null,
  };
  return tracer.inSpan('memory.reindex', attributes, async (span) => {
    const result = await reindexInSpan({ ...deps, tracer }, options, control);
    span.setAttributes(countsOf(result));
    return result;
  });
}

async function reindexInSpan(
  deps: ReindexDependencies & { readonly tracer: Tracer },
  options: ReindexOptions,
  control: ReindexControl,
): Promise<ReindexRunResult> {
  const { store, embedder, tracer } = deps;
  // Each storage step is one `database` span, however many attempts the retry makes.
  const retry = <T>(step: string, work: () => Promise<T>) => databaseStage(tracer, step, () => (control.retry ?? ((run) => run()))(work));
  const model = embedder.model;
  if (model === undefined && !(options.recreate && options.reuseExistingEmbeddings)) {
    throw new MemsvcError(
      'STORAGE_UNAVAILABLE',
      'embeddings are disabled (EMBEDDING_PROVIDER=disabled, or openai without OPENAI_API_KEY): a reindex has nothing to compute vectors with',
    );
  }
  let progress: ReindexSummary = control.resumeFrom ?? { ...EMPTY_REINDEX_SUMMARY, cursor: options.cursor ?? null };
  const resuming = control.resumeFrom !== undefined && control.resumeFrom.cursor !== null;
  if (options.recreate && !resuming) await dropIndex(deps, options, (work) => retry('drop-vector-index', work));
  // A backfill over many memories without vectors builds their part of the index once at the
  // end instead of row by row (the store decides where that pays). A bounded run (maxMemories)
  // keeps the index live: it is a sample, not a load.
  const rebuildAtEnd =
    !options.recreate && options.maxMemories === undefined
      ? await retry('prepare-backfill', () => store.prepareBackfill({ tenant: options.tenant }))
      : false;

  // Batches are pipelined: while one batch's vectors are written (pgvector inserts each into the
  // HNSW graph, the costly part), the next is read and embedded and its write starts on another
  // connection. Writes may overlap but checkpoints commit in order (saveBatch's previousCursor),
  // so the saved cursor never passes a batch that is not saved.
  const depth = Math.max(1, control.pipelineDepth ?? PIPELINE_DEPTH);
  const pending: { save: Promise<{ cancelRequested: boolean }>; progress: ReindexSummary }[] = [];
  let previousSave: Promise<unknown> = Promise.resolve();
  const saveInOrder = (writes: readonly VectorWrite[], next: ReindexSummary, previousCursor: string | null) => {
    const prior = previousSave;
    const ready = prior.then(
      () => undefined,
      () => undefined,
    );
    const checkpoint = control.job ? { ...control.job, progress: next, previousCursor, ready } : undefined;
    const save = retry('save-batch', async () => {
      try {
        return await store.saveBatch(writes, checkpoint);
      } catch (error) {
        // The batch before this one had not committed yet (its first attempt failed): wait for it.
        if (!(error instanceof CheckpointOutOfOrder)) throw error;
        await prior.catch(() => undefined);
        return store.saveBatch(writes, checkpoint);
      }
    });
    // Awaited in order below; until then a rejection must not count as unhandled.
    save.catch(() => undefined);
    previousSave = save;
    pending.push({ save, progress: next });
  };
  let cancelSeen = false;
  const settleOldest = async () => {
    const oldest = pending.shift();
    if (!oldest) return;
    const saved = await oldest.save;
    progress = oldest.progress;
    control.onBatch?.(progress);
    if (saved.cancelRequested) cancelSeen = true;
  };

  let stoppedBy: ReindexStop = 'end';
  let readTo = progress;
  try {
    for (;;) {
      const remaining = options.maxMemories === undefined ? options.batchSize : options.maxMemories - readTo.processed;
      if (remaining <= 0) {
        stoppedBy = 'max-memories';
        break;
      }
      const limit = Math.min(options.batchSize, remaining);
      const after = readTo.cursor ?? undefined;
      const rows = await retry('read-batch', () => store.batch({ tenant: options.tenant, after, limit }));
      if (rows.length === 0) {
        const final = { ...readTo, cursor: null };
        if (control.job) saveInOrder([], final, readTo.cursor);
        else pending.push({ save: Promise.resolve({ cancelRequested: false }), progress: final });
        break;
      }
      const { writes, skipped, failed } = await vectorsFor(rows, embedder, options.reuseExistingEmbeddings, tracer);
      const reachedEnd = rows.length < limit;
      const next: ReindexSummary = {
        processed: readTo.processed + rows.length,
        indexed: readTo.indexed + writes.length,
        skipped: readTo.skipped + skipped,
        failed: readTo.failed + failed,
        cursor: reachedEnd ? null : (rows.at(-1)?.id ?? null),
      };
      saveInOrder(writes, next, readTo.cursor);
      readTo = next;
      if (reachedEnd) break;
      while (pending.length >= depth) await settleOldest();
      if (cancelSeen) break;
      if (control.shouldStop?.()) {
        stoppedBy = 'stopped';
        break;
      }
    }
    while (pending.length > 0) await settleOldest();
  } catch (error) {
    // Let the writes already sent finish (or fail) before reporting: none may outlive the run.
    await Promise.allSettled(pending.map((entry) => entry.save));
    // What the backfill took off is built again for what was saved; a database that is down
    // fails this too, and the next completed run builds it.
    if (rebuildAtEnd) await store.ensureVectorIndex().catch(() => undefined);
    throw error;
  }
  if (cancelSeen && progress.cursor !== null) stoppedBy = 'cancelled';
  if (options.recreate || rebuildAtEnd || stoppedBy === 'end') await retry('ensure-vector-index', () => store.ensureVectorIndex());
  return { ...progress, stoppedBy };
}

/** What a finished run's span reports: its counts and why it stopped. */
function countsOf(result: ReindexRunResult) {
  return {
    'memsvc.reindex.processed': result.processed,
    'memsvc.reindex.indexed': result.indexed,
    'memsvc.reindex.skipped': result.skipped,
    'memsvc.reindex.failed': result.failed,
    'memsvc.reindex.stopped_by': result.stoppedBy,
  };
}

async function dropIndex(
  deps: ReindexDependencies & { readonly tracer: Tracer },
  options: ReindexOptions,
  storage: (work: () => Promise<void>) => Promise<void>,
): Promise<void> {
  if (options.reuseExistingEmbeddings) return storage(() => deps.store.dropVectorIndex(undefined));
  const probe = (await embedInSpan(deps.tracer, deps.embedder, [DIMENSION_PROBE]))?.[0];
  if (!probe || deps.embedder.model === undefined) {
    throw new MemsvcError(
      'STORAGE_UNAVAILABLE',
      'the embedding provider is unavailable, so a recreate cannot learn the new vector size; nothing was dropped — retry when it is up',
    );
  }
  const model = deps.embedder.model;
  return storage(() => deps.store.dropVectorIndex({ dimensions: probe.length, model }));
}

async function vectorsFor(
  rows: readonly ReindexRow[],
  embedder: Embedder,
  reuse: boolean,
  tracer: Tracer,
): Promise<{ writes: VectorWrite[]; skipped: number; failed: number }> {
  const model = embedder.model;
  const pending = rows.filter((row) => !(reuse && row.hasEmbedding && row.embeddingModel === model));
  const writes: VectorWrite[] = [];
  let failed = 0;
  const chunk = embedder.maxBatch ?? pending.length;
  for (let start = 0; start < pending.length; start += chunk) {
    const part = pending.slice(start, start + chunk);
    // A provider that fails part of the run fails those chunks only: their memories are counted
    // failed, keep whatever vector they had, and a later run picks them up.
    const vectors =
      model === undefined
        ? undefined
        : await embedInSpan(
            tracer,
            embedder,
            part.map((row) => row.text),
          );
    if (!vectors || model === undefined) {
      failed += part.length;
      continue;
    }
    part.forEach((row, index) => {
      const vector = vectors[index];
      if (vector) writes.push({ id: row.id, vector, model });
      else failed++;
    });
  }
  return { writes, skipped: rows.length - pending.length, failed };
}
