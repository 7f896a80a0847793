import { type MergeBand, type MergeCluster, mergeClusters } from '../domain/corpus-merge.js';
import { checkScope } from '../domain/memory-limits.js';
import { checkReindexRequest } from '../domain/reindex-rules.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { LifecycleStore } from '../ports/lifecycle-store.js';
import type { CallContext } from './engine-parts.js';
import { CORPUS_SEEDS } from './lifecycle-jobs.js';
import type { SeenMemory } from './resolve-contradiction.js';

/** A cluster as the person saw it in a dry run: the memory kept and those merging into it, at the versions shown. */
export interface SeenCluster {
  readonly canonical: SeenMemory;
  readonly losers: readonly SeenMemory[];
}

/** Most clusters one approval takes: as many as a dry run lists (consolidateCorpus's perCluster). */
export const APPROVED_CLUSTERS_MAX = 50;

export interface ConsolidationApprovalInput {
  /** The dry run's parameters (consolidateCorpus's `scope`, `limit`, `cursor`), unchanged. */
  readonly scope?: string | undefined;
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
  /** The clusters approved, as shown. */
  readonly clusters: readonly SeenCluster[];
}

export interface ConsolidationApproval {
  readonly merged: number;
  /**
   * Approved clusters left alone because they are no longer what was shown: a member changed or
   * went, or the pass now groups the memories differently. A new dry run shows them as they are.
   */
  readonly changed: number;
}

export interface ApproveConsolidationDependencies {
  readonly lifecycle: LifecycleStore;
  /** [MEMORY_CONSOLIDATION_MERGE_THRESHOLD, MEMORY_DUPLICATE_THRESHOLD), as the scheduled pass uses it. */
  readonly band: MergeBand;
}

/**
 * Merges the clusters a person approved after a dry run of corpus consolidation, in their own
 * tenant, audited as them.
 *
 * Why not `consolidateCorpus` with `dryRun: false`: it merges every cluster its pass finds, as
 * `system:corpus-consolidation`, and cannot be told which clusters; between the dry run and the
 * approval an agent may have written or edited memories, and the person would approve one set of
 * merges and get another. So this re-runs the same pass with the same parameters (the same
 * similarPairs query and the same mergeClusters rule, R-MERGE-1..3) and merges only the clusters
 * that are exactly as approved: the same canonical memory, the same members, each at the version
 * shown. The rest are counted as `changed` and left for a new dry run. mergeCluster itself checks
 * the versions again under its row locks, so a change in the last moment is caught too.
 */
export async function approveConsolidation(
  deps: ApproveConsolidationDependencies,
  context: CallContext,
  input: ConsolidationApprovalInput,
): Promise<ConsolidationApproval> {
  const limit = input.limit ?? CORPUS_SEEDS.default;
  if (!Number.isInteger(limit) || limit < 1 || limit > CORPUS_SEEDS.max) {
    throw new MemsvcError('INVALID_INPUT', `limit must be a whole number from 1 to ${CORPUS_SEEDS.max}`, { field: 'limit' });
  }
  if (input.clusters.length === 0 || input.clusters.length > APPROVED_CLUSTERS_MAX) {
    throw new MemsvcError('INVALID_INPUT', `approve 1 to ${APPROVED_CLUSTERS_MAX} clusters`, { field: 'clusters' });
  }
  const scope = input.scope === undefined ? undefined : (checkScope(input.scope) ?? undefined);
  const cursor = input.cursor === undefined ? undefined : checkReindexRequest({ cursor: input.cursor }).cursor;

  const found = await deps.lifecycle.similarPairs({
    tenant: context.tenant,
    scope,
    minSimilarity: deps.band.mergeThreshold,
    maxSimilarity: deps.band.duplicateThreshold,
    after: cursor,
    seedLimit: limit,
  });
  const current = new Map(mergeClusters(found.pairs, deps.band).map((cluster) => [cluster.canonical.id, cluster]));
  let merged = 0;
  let changed = 0;
  const approved = new Map(input.clusters.map((cluster) => [cluster.canonical.id, cluster]));
  for (const seen of approved.values()) {
    const cluster = current.get(seen.canonical.id);
    if (!cluster || !isAsSeen(cluster, seen)) {
      changed++;
      continue;
    }
    const outcome = await deps.lifecycle.mergeCluster(cluster.canonical, cluster.losers, cluster.unionedTags, context.actor);
    if (outcome === 'merged') merged++;
    else changed++;
  }
  return { merged, changed };
}

/** The same canonical memory and members, each at the version shown. */
function isAsSeen(cluster: MergeCluster, seen: SeenCluster): boolean {
  if (cluster.canonical.id !== seen.canonical.id || cluster.canonical.version !== seen.canonical.version) return false;
  if (cluster.losers.length !== seen.losers.length) return false;
  const seenVersion = new Map(seen.losers.map((loser) => [loser.id, loser.version]));
  return cluster.losers.every((loser) => seenVersion.get(loser.memory.id) === loser.memory.version);
}
