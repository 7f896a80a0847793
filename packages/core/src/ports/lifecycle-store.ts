import type { SimilarPair } from '../domain/corpus-merge.js';
import type { MemoryRecord } from '../domain/memory.js';
import type { TenantId } from '../domain/tenant.js';
import type { Actor } from './memory-store.js';

/** A memory the decay scan changes: its new score and stale mark, and whether to prune it. */
export interface DecayChange {
  readonly memory: MemoryRecord;
  readonly importanceScore: number;
  readonly stale: boolean;
  readonly prune: boolean;
}

/** What applying one merge cluster did. */
export type MergeOutcome = 'merged' | 'changed-meanwhile';

/** Counts of the auth-store sweep. */
export interface AuthSweepCounts {
  readonly sessions: number;
  readonly oauthStates: number;
  readonly deniedJtis: number;
  readonly rateLimitCounters: number;
}

/**
 * The storage side of the scheduled jobs (spec §1.9). These are the admin paths that read across
 * tenants; each method that changes a memory still writes it per tenant, and every prune or merge
 * writes an audit row, so it can be restored.
 */
export interface LifecycleStore {
  /** Deletes short-term rows that expired before `now`, at most `limit` of them; returns how many. */
  deleteExpiredShortTerm(now: Date, limit: number): Promise<number>;

  /**
   * Live short-term memories whose access count reaches `accessThreshold` (and importance score
   * `importanceThreshold`, when set), in id order after `after`, optionally of one tenant.
   */
  promotionCandidates(query: {
    readonly tenant: TenantId | undefined;
    readonly accessThreshold: number;
    readonly importanceThreshold: number | undefined;
    readonly after: string | undefined;
    readonly limit: number;
  }): Promise<readonly MemoryRecord[]>;

  /** Live long-term memories of every tenant in id order after `after` (the decay scan's batch). */
  decayBatch(after: string | undefined, limit: number): Promise<readonly MemoryRecord[]>;

  /**
   * Stores new scores and stale marks (bookkeeping: no version bump, no audit row) and deletes the
   * pruned memories (a version and an audit row each, restorable), in one transaction. A memory
   * changed since it was read is left for the next scan. Returns how many were marked and pruned.
   */
  applyDecay(changes: readonly DecayChange[], actor: Actor): Promise<{ readonly updated: number; readonly pruned: number }>;

  /**
   * Pairs of live, uncontradicted, unsuperseded long-term memories in one tenant and scope whose
   * similarity lies in [minSimilarity, maxSimilarity): for each seed memory in id order after
   * `after` (at most `seedLimit` seeds), its nearest neighbours.
   */
  similarPairs(query: {
    readonly tenant: TenantId | undefined;
    /** Exact scope; every scope when undefined. */
    readonly scope: string | undefined;
    readonly minSimilarity: number;
    readonly maxSimilarity: number;
    readonly after: string | undefined;
    readonly seedLimit: number;
  }): Promise<{ readonly pairs: readonly SimilarPair[]; readonly scanned: number; readonly lastSeed: string | undefined }>;

  /**
   * Merges `losers` into `canonical` in one transaction: the canonical memory gets `tags`, each
   * loser is marked superseded by it and linked `duplicate-of` it, every change is versioned and
   * audited. If any member changed since it was read (its version moved), nothing is written.
   */
  mergeCluster(
    canonical: MemoryRecord,
    losers: readonly { readonly memory: MemoryRecord; readonly similarity: number }[],
    tags: readonly string[],
    actor: Actor,
  ): Promise<MergeOutcome>;

  /** Deletes expired sessions, OAuth states and denylisted JWT ids, and lapsed rate-limit counters. */
  sweepAuthStore(now: Date): Promise<AuthSweepCounts>;

  /** A scheduled job's saved scan position (the decay scan's cursor). */
  jobCursor(job: string): Promise<string | undefined>;
  saveJobCursor(job: string, cursor: string | undefined): Promise<void>;
}
