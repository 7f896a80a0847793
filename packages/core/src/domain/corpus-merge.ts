import type { MemoryRecord } from './memory.js';
import { MEMORY_LIMITS } from './memory-limits.js';

/** Two long-term memories of one tenant and scope, and their cosine similarity. */
export interface SimilarPair {
  readonly a: MemoryRecord;
  readonly b: MemoryRecord;
  readonly similarity: number;
}

/** A group of near-duplicates and the memory they merge into. */
export interface MergeCluster {
  readonly canonical: MemoryRecord;
  /** The other members, with their similarity to the member that brought them in. */
  readonly losers: readonly { readonly memory: MemoryRecord; readonly similarity: number }[];
  /** Every member's tags, deduplicated, canonical's first, at most MEMORY_LIMITS.tagsMax. */
  readonly unionedTags: readonly string[];
}

/** The merge band of spec §2.5: [MEMORY_CONSOLIDATION_MERGE_THRESHOLD, MEMORY_DUPLICATE_THRESHOLD). */
export interface MergeBand {
  readonly mergeThreshold: number;
  readonly duplicateThreshold: number;
}

/** R-MERGE-1: a pair merges when its similarity is at or above the merge threshold and below the duplicate threshold. */
export function inMergeBand(similarity: number, band: MergeBand): boolean {
  return similarity >= band.mergeThreshold && similarity < band.duplicateThreshold;
}

/**
 * R-MERGE-2: the canonical memory of a cluster is the one with the highest importance score; a
 * pinned memory wins a tie, then the most recently created (then the larger id, so the rule is
 * total and every process picks the same row).
 */
export function compareCanonical(x: MemoryRecord, y: MemoryRecord): number {
  return (
    y.importanceScore - x.importanceScore ||
    Number(y.pinned) - Number(x.pinned) ||
    y.createdAt.getTime() - x.createdAt.getTime() ||
    (y.id > x.id ? 1 : y.id < x.id ? -1 : 0)
  );
}

/**
 * Groups pairs into clusters (connected components of the pairs in the merge band) and elects
 * each cluster's canonical memory. R-MERGE-3: contradicted, superseded or deleted memories never
 * take part, whatever pairs are given, and clusters never cross tenants or scopes.
 */
export function mergeClusters(pairs: readonly SimilarPair[], band: MergeBand): MergeCluster[] {
  const parent = new Map<string, string>();
  const members = new Map<string, MemoryRecord>();
  const linkSimilarity = new Map<string, number>();
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root) ?? root;
    parent.set(id, root);
    return root;
  };
  for (const pair of pairs) {
    if (!inMergeBand(pair.similarity, band) || !mergeable(pair.a) || !mergeable(pair.b)) continue;
    if (pair.a.id === pair.b.id || pair.a.userId !== pair.b.userId || pair.a.scope !== pair.b.scope) continue;
    for (const memory of [pair.a, pair.b]) {
      if (!members.has(memory.id)) {
        members.set(memory.id, memory);
        parent.set(memory.id, memory.id);
      }
      linkSimilarity.set(memory.id, Math.max(linkSimilarity.get(memory.id) ?? 0, pair.similarity));
    }
    const rootA = find(pair.a.id);
    const rootB = find(pair.b.id);
    if (rootA !== rootB) parent.set(rootA, rootB);
  }
  const groups = new Map<string, MemoryRecord[]>();
  for (const memory of members.values()) {
    const root = find(memory.id);
    groups.set(root, [...(groups.get(root) ?? []), memory]);
  }
  return [...groups.values()]
    .map((group) => {
      const [canonical, ...rest] = [...group].sort(compareCanonical);
      if (!canonical) throw new Error('a cluster has members');
      return {
        canonical,
        losers: rest.map((memory) => ({ memory, similarity: linkSimilarity.get(memory.id) ?? 0 })),
        // The merged memory holds to the tag limit like any other; the canonical's own tags come first.
        unionedTags: [...new Set([canonical, ...rest].flatMap((memory) => memory.tags))].slice(0, MEMORY_LIMITS.tagsMax),
      };
    })
    .sort((x, y) => (x.canonical.id < y.canonical.id ? -1 : 1));
}

function mergeable(memory: MemoryRecord): boolean {
  return memory.tier === 'ltm' && !memory.contradicted && memory.supersededBy === null && memory.deletedAt === null;
}
