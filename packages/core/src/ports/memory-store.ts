import type { LexicalRanking } from '../domain/lexical-ranking.js';
import type { AuditEntry, MemoryEmbedding, MemoryMarker, MemoryPatch, MemoryRecord, MemoryTier, NewMemory } from '../domain/memory.js';
import type { RecallFilters } from '../domain/recall-filters.js';
import type { RecallCandidate } from '../domain/recall-ranking.js';
import type { SupersessionRequest } from '../domain/supersession-plan.js';
import type { TenantId } from '../domain/tenant.js';
import type { Neighbour, WriteDecision } from '../domain/write-decision.js';
import type { NewMemoryUnit, PromotionUnit, UpdateUnit } from './write-unit.js';

export type { RecallFilters };

/** Who did something, for the audit trail. */
export interface Actor {
  /** `agent:<api-key-id>`, `user:<id>`, `system:<job>`, `local`, … */
  readonly id: string;
}

export interface ListMemoriesQuery {
  readonly tier?: MemoryTier;
  /** Exact-match scope filter; undefined means every scope. */
  readonly scope?: string;
  /** Memories carrying every one of these tags. */
  readonly tags?: readonly string[];
  /** 1–1000. */
  readonly limit: number;
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string;
  readonly includeDeleted?: boolean;
  /** Deleted (restorable) rows only: the dashboard's list of what can still be restored. */
  readonly onlyDeleted?: boolean;
  /** Superseded rows are hidden unless asked for. */
  readonly includeSuperseded?: boolean;
  /** Only memories carrying this marker (`superseded` implies includeSuperseded). */
  readonly marker?: MemoryMarker;
  readonly createdFrom?: Date;
  readonly createdTo?: Date;
}

export interface MemoryPage {
  readonly items: readonly MemoryRecord[];
  /** Present when more rows follow. Opaque to callers. */
  readonly nextCursor: string | undefined;
}

export type NearestMemory = Neighbour;

/**
 * A stored link between two memories (a contradiction, a supersession, a merged duplicate, an
 * imported relation), read from either end (MemoryStore.links).
 */
export interface MemoryLinkRecord {
  readonly id: string;
  readonly sourceMemoryId: string;
  /** Null when the target was purged; `targetLocator` still names it. */
  readonly targetMemoryId: string | null;
  /** `id:<uuid>` for a memory, or what an import named (untrusted text). */
  readonly targetLocator: string;
  /** `contradicts`, `supersedes`, `superseded-by`, `duplicate-of`, `relates-to`, `derived-from`, `source-of`. */
  readonly rel: string;
  /** `derived` when a write or a job made it, `authored` when a client or an import stated it. */
  readonly origin: 'authored' | 'derived';
  /** The similarity that made a derived link. */
  readonly score: number | null;
  readonly note: string | null;
  readonly createdAt: Date;
}

export interface RecallCandidateQuery {
  readonly text: string;
  readonly vector: readonly number[] | null;
  /** Candidates taken from each list. */
  readonly perList: number;
  /** Nearest neighbours below this cosine similarity are left out. */
  readonly minSimilarity: number;
  /** The BM25 parameters of the full-text list. */
  readonly lexical: LexicalRanking;
  readonly filters: RecallFilters;
  readonly now: Date;
  /** Read the memories as they are now: on the primary when the store has a read replica (RecallInput.current). */
  readonly current?: boolean;
}

/** Which earlier memory of a conversation to find (MemoryStore.precedingMemory). */
export interface PrecedingMemoryQuery {
  readonly count: number;
  readonly conversationId: string | undefined;
  readonly beforeTurn: number | undefined;
  /** Without a conversation: the scope the memory must share, and how recent it must be. */
  readonly scope: string | null;
  readonly since: Date;
  /** How many of the tenant's most recent memories to look through. */
  readonly window: number;
}

/** What a rule-checked write did. */
export interface WriteOutcome {
  /** The stored memory, or the existing one the write collapsed into. */
  readonly memory: MemoryRecord;
  readonly decision: WriteDecision;
  /** Existing rows marked contradicted or superseded by this write, as they are now. */
  readonly affected: readonly MemoryRecord[];
  /** The memories the caller named in `supersedes`, retired by this write, as they are now. */
  readonly superseded?: readonly MemoryRecord[];
}

/** What a rule-checked write does besides the write rules (writeMemory). */
export interface WriteOptions {
  /** The memories the caller retires behind this one (`supersedes`), and core's plan for them. */
  readonly supersede?: SupersessionRequest | undefined;
  /** The granted space a grantee's write is bound to (CallContext.grantSpace): no candidate outside it counts. */
  readonly space?: string | undefined;
}

/** Which audit entries give a tenant's memories as they were at a moment (MemoryStore.versionsAsOf). */
export interface VersionsAsOfQuery {
  readonly at: Date;
  /** Only these memories; every memory of the tenant when undefined. */
  readonly ids?: readonly string[] | undefined;
  /** At most this many memories, the newest (by id) first. */
  readonly limit: number;
}

/** The newest audit entry of each memory at a moment, as one read. */
export interface VersionsAsOf {
  /** For each memory with an audit entry at or before `at`, its newest such entry; newest memory first. */
  readonly entries: readonly AuditEntry[];
  /** More memories than `limit` had entries by then: the oldest were left out. */
  readonly truncated: boolean;
  /** Whether the tenant had any audited change at or before `at` (any memory, whatever `ids` says). */
  readonly tenantHadMemories: boolean;
}

export interface UpdateOptions {
  /** Optimistic concurrency: the update applies only if the row still has this version. */
  readonly expectedVersion?: number;
  readonly actor: Actor;
  /** The audit action (`update`, `promote`, `reembed`, …). */
  readonly action: string;
  /** Content and tags changes bump the version; server bookkeeping passes false. */
  readonly bumpVersion?: boolean;
  /** The memories the caller retires behind the updated one (`supersedes`), in the same unit of work. */
  readonly supersede?: SupersessionRequest | undefined;
}

/**
 * Persistence of memories. Every method takes the tenant as its first, required argument and
 * every query filters on it: there is no way to read across tenants through this port. Expired
 * short-term rows are invisible to every read (spec §3.2 rule 5), deleted rows unless asked for.
 * Every mutation writes an audit row in the same transaction.
 */
export interface MemoryStore {
  /**
   * Stores a memory exactly as given, without the write rules (no duplicate, contradiction or
   * changed-fact check): for seeding a store in tests and benchmarks. The engine never calls it;
   * its writes go through writeUnit.
   */
  insertAsGiven(tenant: TenantId, memory: NewMemory, actor: Actor): Promise<MemoryRecord>;

  /**
   * Runs `work`, core's write use case (engine/write-memory.ts), as the unit of work of writing
   * `memory`: one transaction holding the write lock of its content in `tenant`, so two
   * concurrent identical writes leave one row. The memory is checked (tier and expiry, vector)
   * before anything runs. When `work` throws, nothing it did stays. A store may run `work` again
   * after a lock conflict its database broke, so `work` decides from what the unit reads.
   */
  writeUnit<T>(tenant: TenantId, actor: Actor, memory: NewMemory, work: (unit: NewMemoryUnit) => Promise<T>): Promise<T>;

  /**
   * Runs `work`, core's promotion use case (spec §3.2 rule 4), as the unit of work of promoting
   * memory `id`: one transaction holding its row, then the write lock of its content. NOT_FOUND
   * when there is no live memory with that id in `tenant`. When `work` throws, nothing stays.
   */
  promotionUnit<T>(tenant: TenantId, actor: Actor, id: string, work: (unit: PromotionUnit) => Promise<T>): Promise<T>;

  /** The memory with this id in this tenant, or undefined (also for another tenant's id). */
  findById(tenant: TenantId, id: string, options?: { includeDeleted?: boolean }): Promise<MemoryRecord | undefined>;

  /**
   * A client's read of one live memory, counted: returns it with its access count and last
   * access already updated, in one statement (a read and a separate count would be two round
   * trips on the hottest call; the name says it writes). Undefined when absent, expired or
   * another tenant's. `findById` reads without counting.
   */
  readCountingAccess(tenant: TenantId, id: string): Promise<MemoryRecord | undefined>;

  /** Live, unsuperseded memories by importance score, highest first (ties: newest first). */
  mostImportant(tenant: TenantId, query: { limit: number; scope?: string; tags?: readonly string[] }): Promise<readonly MemoryRecord[]>;

  /**
   * The live memories among `ids` in this tenant (superseded ones too; deleted and expired ones
   * never), in one read, in no particular order: the memories a recall's hits name as their
   * replacements. Unknown ids and other tenants' are left out.
   */
  findLiveByIds(tenant: TenantId, ids: readonly string[]): Promise<readonly MemoryRecord[]>;

  /** A page of memories, newest first, stable under concurrent inserts. */
  list(tenant: TenantId, query: ListMemoriesQuery): Promise<MemoryPage>;

  /**
   * Runs `work`, core's update use case (engine/update-memory.ts), as the unit of work of applying
   * `patch` to memory `id`: one transaction holding its row. NOT_FOUND when there is no live
   * memory with that id in `tenant`; the patch's vector is checked before anything runs. When
   * `work` throws, nothing stays.
   */
  updateUnit<T>(tenant: TenantId, actor: Actor, id: string, patch: MemoryPatch, work: (unit: UpdateUnit) => Promise<T>): Promise<T>;

  /** Marks a memory deleted; false when there was no live memory with that id in this tenant. */
  softDelete(tenant: TenantId, id: string, actor: Actor): Promise<boolean>;

  /**
   * Brings back a deleted memory (no `version`), or a live memory's content as it was at an
   * earlier `version`, as a new version. NOT_FOUND when there is nothing to restore.
   */
  restore(tenant: TenantId, id: string, actor: Actor, options?: { version?: number }): Promise<MemoryRecord>;

  /**
   * The tenant's memories as the audit says they were at `query.at`: for each memory (or each of
   * `query.ids`), its newest audit entry at or before then, in one bounded read (at most
   * `query.limit` memories). Core turns the entries into versions (versions-as-of.ts).
   */
  versionsAsOf(tenant: TenantId, query: VersionsAsOfQuery): Promise<VersionsAsOf>;

  /** The audit trail of one memory, newest first. */
  auditTrail(tenant: TenantId, id: string, limit: number): Promise<readonly AuditEntry[]>;

  /**
   * The links of one memory in both directions (it is their source or their target), oldest
   * first, at most `limit`; whatever state the memories at either end are in. Empty for an
   * unknown id or another tenant's.
   */
  links(tenant: TenantId, id: string, limit: number): Promise<readonly MemoryLinkRecord[]>;

  /**
   * The links of each of `ids` as `links` reads them (both directions, oldest first, at most
   * `perMemory` each), in one read; a memory without links has no entry.
   */
  linksOf(tenant: TenantId, ids: readonly string[], perMemory: number): Promise<ReadonlyMap<string, readonly MemoryLinkRecord[]>>;

  /** Counts a read of these memories (one statement for all of them); no version bump. */
  recordAccess(tenant: TenantId, ids: readonly string[]): Promise<void>;

  /** Stores (or replaces) the vector of a memory; false when the memory is not there. */
  setEmbedding(tenant: TenantId, id: string, embedding: MemoryEmbedding): Promise<boolean>;

  /**
   * The candidates of a recall, in one round trip: the `perList` nearest memories by cosine
   * similarity (when there is a query vector) and the `perList` best full-text matches, each
   * with its rank in its list. Unordered; core ranks them.
   */
  recallCandidates(tenant: TenantId, query: RecallCandidateQuery): Promise<readonly RecallCandidate[]>;

  /**
   * The memories written just before a new one, newest first, for the new one's search context:
   * up to `count` live memories among the tenant's `window` most recent ones that, with a
   * `conversationId`, name that conversation in their metadata (as `conversationId`, or
   * `conversation.id` as ingest writes it) and, when `beforeTurn` is given, one of the `count`
   * turns before it; without one, share the scope and were created at or after `since`.
   * Bounded: it never reads past `window` rows.
   */
  precedingMemories(tenant: TenantId, query: PrecedingMemoryQuery): Promise<readonly MemoryRecord[]>;

  /** The live memories nearest to `vector` by cosine similarity, most similar first. */
  nearest(tenant: TenantId, vector: readonly number[], limit: number): Promise<readonly NearestMemory[]>;
}
