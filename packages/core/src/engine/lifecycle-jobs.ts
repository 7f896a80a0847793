import { type MergeBand, mergeClusters } from '../domain/corpus-merge.js';
import { type DecayRules, decayVerdict, type PromotionRules } from '../domain/lifecycle-rules.js';
import type { MemoryRecord } from '../domain/memory.js';
import type { SimilarityRules } from '../domain/similarity-rules.js';
import type { TenantId } from '../domain/tenant.js';
import { isMemsvcError, MemsvcError } from '../errors/memsvc-error.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { DecayChange, LifecycleStore } from '../ports/lifecycle-store.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { ProgressListener } from '../ports/progress.js';
import { promoteMemory } from './promote-memory.js';

/** The settings the scheduled jobs use (slices of MemsvcConfig). */
export interface LifecycleSettings {
  readonly promotion: PromotionRules;
  readonly decay: DecayRules & { readonly batchSize: number };
  readonly similarity: SimilarityRules;
  /** MEMORY_CONSOLIDATION_MERGE_THRESHOLD: the merge band is [this, duplicateThreshold). */
  readonly mergeThreshold: number;
}

export interface LifecycleDependencies {
  readonly lifecycle: LifecycleStore;
  readonly memories: MemoryStore;
  readonly clock: Clock;
  readonly settings: LifecycleSettings;
  /** Promotion embeds a memory stored without a vector first, so the duplicate check can see it. */
  readonly embedder?: Embedder;
}

/** Rows handled per statement by the sweep and the promotion pass. */
const PASS_BATCH = 500;
/** Most memories one promotion pass looks at; the next pass continues (candidates stay candidates). */
const MAX_PROMOTIONS_PER_PASS = 10_000;

export interface PromotionPassResult {
  readonly scanned: number;
  /** Moved to long-term, keeping their ids. */
  readonly promoted: number;
  /** Duplicates of a long-term memory: collapsed into it (the short-term row is gone). */
  readonly collapsed: number;
  /** Gone or already long-term by the time the pass reached them. */
  readonly skipped: number;
  readonly failed: number;
  readonly promotedIds: readonly string[];
}

/**
 * The short-term → long-term pass (spec §1.9, §3.2 rule 4): every qualifying memory is promoted
 * under the write rules — a duplicate of a long-term memory collapses into it, a contradiction is
 * flagged or superseded as on a write. One failure does not stop the others.
 */
export async function promoteQualified(
  deps: LifecycleDependencies,
  options: { tenant?: TenantId; onProgress?: ProgressListener | undefined } = {},
): Promise<PromotionPassResult> {
  const actor = { id: 'system:stm-promotion' };
  const counts = { scanned: 0, promoted: 0, collapsed: 0, skipped: 0, failed: 0 };
  const promotedIds: string[] = [];
  let after: string | undefined;
  while (counts.scanned < MAX_PROMOTIONS_PER_PASS) {
    const candidates = await deps.lifecycle.promotionCandidates({
      tenant: options.tenant,
      accessThreshold: deps.settings.promotion.accessThreshold,
      importanceThreshold: deps.settings.promotion.importanceThreshold,
      after,
      limit: PASS_BATCH,
    });
    for (const candidate of candidates) {
      counts.scanned++;
      try {
        await embedIfMissing(deps, candidate);
        const outcome = await promoteMemory(deps.memories, candidate.userId, candidate.id, actor, deps.settings.similarity);
        if (outcome.decision.kind === 'collapse') counts.collapsed++;
        else {
          counts.promoted++;
          promotedIds.push(candidate.id);
        }
      } catch (error) {
        // Expired, deleted or promoted elsewhere since the scan read it: nothing left to do.
        if (isMemsvcError(error, 'NOT_FOUND')) counts.skipped++;
        else counts.failed++;
      }
    }
    options.onProgress?.({ done: counts.scanned, message: 'short-term memories examined' });
    if (candidates.length < PASS_BATCH) break;
    after = candidates.at(-1)?.id;
  }
  return { ...counts, promotedIds };
}

/** A short-term memory written while the provider was down gets its vector before it is compared. */
async function embedIfMissing(deps: LifecycleDependencies, memory: MemoryRecord): Promise<void> {
  const model = deps.embedder?.model;
  if (memory.hasEmbedding || !deps.embedder || model === undefined) return;
  const vector = (await deps.embedder.embed([memory.content]))?.[0];
  if (vector) await deps.memories.setEmbedding(memory.userId, memory.id, { vector, model });
}

/** The expiry sweep (spec §3.2 rule 5): bulk deletes of expired short-term rows; returns how many. */
export async function sweepExpiredShortTerm(deps: Pick<LifecycleDependencies, 'lifecycle' | 'clock'>): Promise<number> {
  const now = deps.clock.now();
  let total = 0;
  for (;;) {
    const deleted = await deps.lifecycle.deleteExpiredShortTerm(now, PASS_BATCH * 10);
    total += deleted;
    if (deleted < PASS_BATCH * 10) return total;
  }
}

export const DECAY_JOB = 'ltm-decay';

export interface DecayScanResult {
  readonly scanned: number;
  readonly updated: number;
  readonly pruned: number;
  /** True when the scan reached the end of the table (the cursor is cleared); false when stopped by maxBatches or its signal. */
  readonly completed: boolean;
}

/** Bounds of one decay pass: a number of batches, or a signal (a process shutting down) checked between batches. */
export interface DecayScanOptions {
  readonly maxBatches?: number | undefined;
  /** Aborted: the pass stops after the batch in hand; its saved cursor lets the next pass resume there. */
  readonly signal?: { readonly aborted: boolean } | undefined;
}

/**
 * The long-term decay scan: batches of MEMORY_DECAY_BATCH_SIZE in id order, each recomputing
 * scores, stale marks and prunes (decayVerdict), with the cursor saved in the database after
 * every batch, so a scan cut short — a crash, a deploy — resumes where it stopped.
 */
export async function decayScan(deps: LifecycleDependencies, options: DecayScanOptions = {}): Promise<DecayScanResult> {
  const actor = { id: 'system:ltm-decay' };
  const counts = { scanned: 0, updated: 0, pruned: 0 };
  let cursor = await deps.lifecycle.jobCursor(DECAY_JOB);
  for (let batches = 0; batches < (options.maxBatches ?? Number.POSITIVE_INFINITY) && !options.signal?.aborted; batches++) {
    const batch = await deps.lifecycle.decayBatch(cursor, deps.settings.decay.batchSize);
    if (batch.length === 0) {
      await deps.lifecycle.saveJobCursor(DECAY_JOB, undefined);
      return { ...counts, completed: true };
    }
    const now = deps.clock.now();
    const changes: DecayChange[] = [];
    for (const memory of batch) {
      const verdict = decayVerdict(memory, now, deps.settings.decay);
      const changed = Math.abs(verdict.importanceScore - memory.importanceScore) > 1e-9 || verdict.stale !== memory.stale;
      if (changed || verdict.prune) changes.push({ memory, ...verdict });
    }
    const applied = await deps.lifecycle.applyDecay(changes, actor);
    counts.scanned += batch.length;
    counts.updated += applied.updated;
    counts.pruned += applied.pruned;
    cursor = batch.at(-1)?.id;
    await deps.lifecycle.saveJobCursor(DECAY_JOB, cursor);
  }
  return { ...counts, completed: false };
}

/** Limits of one corpus-consolidation pass. */
export const CORPUS_SEEDS = { default: 500, max: 10_000 } as const;
/** Clusters listed in a result; the counts cover all of them. */
const LISTED_CLUSTERS = 50;

export interface CorpusConsolidationInput {
  readonly tenant?: TenantId | undefined;
  readonly scope?: string | undefined;
  /** Default true: report the clusters without merging. */
  readonly dryRun?: boolean | undefined;
  /** Seed memories examined (default 500, at most 10,000). */
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
  /** Told after each merged cluster (or once, for a dry run). */
  readonly onProgress?: ProgressListener | undefined;
}

export interface CorpusConsolidationResult {
  readonly dryRun: boolean;
  readonly scanned: number;
  readonly clusters: number;
  readonly merged: number;
  /** Clusters left alone because a member changed while the pass ran. */
  readonly skippedConcurrentEdit: number;
  /** Pass as `cursor` to continue; null when the pass reached the end. */
  readonly cursor: string | null;
  readonly perCluster: readonly {
    readonly canonicalId: string;
    readonly loserIds: readonly string[];
    readonly similarities: readonly number[];
    readonly unionedTags: readonly string[];
  }[];
  readonly perClusterTruncated: boolean;
}

/**
 * Corpus consolidation (spec §1.9, §2.5): long-term near-duplicates whose similarity lies in the
 * merge band [merge, duplicate) are grouped; each group merges into its canonical memory
 * (compareCanonical), which gains every member's tags; the others are superseded by it (hidden
 * from default recall, not deleted), linked `duplicate-of` it and audited, so restore_memory of
 * their previous version undoes it. Contradicted rows never merge. A dry run (the default) only
 * reports.
 */
export async function consolidateCorpus(
  deps: LifecycleDependencies,
  input: CorpusConsolidationInput = {},
): Promise<CorpusConsolidationResult> {
  const limit = input.limit ?? CORPUS_SEEDS.default;
  if (!Number.isInteger(limit) || limit < 1 || limit > CORPUS_SEEDS.max) {
    throw new MemsvcError('INVALID_INPUT', `limit must be a whole number from 1 to ${CORPUS_SEEDS.max}`, { field: 'limit' });
  }
  const dryRun = input.dryRun ?? true;
  const band: MergeBand = { mergeThreshold: deps.settings.mergeThreshold, duplicateThreshold: deps.settings.similarity.duplicateThreshold };
  const found = await deps.lifecycle.similarPairs({
    tenant: input.tenant,
    scope: input.scope,
    minSimilarity: band.mergeThreshold,
    maxSimilarity: band.duplicateThreshold,
    after: input.cursor,
    seedLimit: limit,
  });
  const clusters = mergeClusters(found.pairs, band);
  let merged = 0;
  let skippedConcurrentEdit = 0;
  // One unit per memory examined, then one per cluster merged: progress only grows.
  const steps = found.scanned + (dryRun ? 0 : clusters.length);
  input.onProgress?.({ done: found.scanned, total: steps, message: 'memories examined, clusters merged' });
  if (!dryRun) {
    const actor = { id: 'system:corpus-consolidation' };
    for (const cluster of clusters) {
      const outcome = await deps.lifecycle.mergeCluster(cluster.canonical, cluster.losers, cluster.unionedTags, actor);
      if (outcome === 'merged') merged++;
      else skippedConcurrentEdit++;
      input.onProgress?.({
        done: found.scanned + merged + skippedConcurrentEdit,
        total: steps,
        message: 'memories examined, clusters merged',
      });
    }
  }
  return {
    dryRun,
    scanned: found.scanned,
    clusters: clusters.length,
    merged,
    skippedConcurrentEdit,
    cursor: found.scanned === limit ? (found.lastSeed ?? null) : null,
    perCluster: clusters.slice(0, LISTED_CLUSTERS).map((cluster) => ({
      canonicalId: cluster.canonical.id,
      loserIds: cluster.losers.map((loser) => loser.memory.id),
      similarities: cluster.losers.map((loser) => Math.round(loser.similarity * 10_000) / 10_000),
      unionedTags: cluster.unionedTags,
    })),
    perClusterTruncated: clusters.length > LISTED_CLUSTERS,
  };
}
