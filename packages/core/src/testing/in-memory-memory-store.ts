import type { AuditEntry, MemoryEmbedding, MemoryPatch, MemoryRecord, NewMemory } from '../domain/memory.js';
import type { RecallCandidate } from '../domain/recall-ranking.js';
import type { TenantId } from '../domain/tenant.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/id-generator.js';
import type {
  Actor,
  ListMemoriesQuery,
  MemoryLinkRecord,
  MemoryPage,
  MemoryStore,
  NearestMemory,
  PrecedingMemoryQuery,
  RecallCandidateQuery,
  VersionsAsOf,
  VersionsAsOfQuery,
} from '../ports/memory-store.js';
import { checkFinite, checkLimit, checkNewMemory } from '../ports/memory-store-checks.js';
import type { NewMemoryUnit, PromotionUnit, UpdateUnit } from '../ports/write-unit.js';
import { cosineSimilarity, toStoredVector } from './cosine-similarity.js';
import { recallCandidates } from './in-memory-recall-candidates.js';
import { InMemoryTenant, type MemoryLink } from './in-memory-tenant.js';
import { InMemoryVectorSpace } from './in-memory-vector-space.js';
import { InMemoryNewMemoryUnit, InMemoryPromotionUnit, type InMemoryUnitContext, InMemoryUpdateUnit } from './in-memory-write-unit.js';
import { isLiveAt, isUnexpiredAt, matchesFilters, newestFirst } from './memory-visibility.js';
import { precedingMemories } from './preceding-memories.js';
import { restoreMemory } from './restore-memory.js';
import { SequentialIdGenerator } from './sequential-id-generator.js';
import { changeRow, copyJson, newStoredMemory, type StoredMemory, toRecord } from './stored-memory.js';
import { WriteQueue } from './write-queue.js';

export interface InMemoryMemoryStoreOptions {
  /** "Now" for timestamps and expiry: a ManualClock in tests, so expiry is exact. */
  readonly clock: Clock;
  /** Ids of new memories and links; default a SequentialIdGenerator on `clock`. */
  readonly ids?: IdGenerator;
  /** The dimensionality rules for vectors; default one fixed by the first vector stored. */
  readonly vectorSpace?: InMemoryVectorSpace;
}

/** What the store holds, for a test's assertions: rows as they are (deleted and expired ones too). */
export interface InMemoryStoreContents {
  readonly memories: readonly (MemoryRecord & { readonly searchContext: string | null })[];
  /** Oldest first. */
  readonly audit: readonly AuditEntry[];
  readonly links: readonly MemoryLink[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The MemoryStore port in process memory, for tests of the engine, the tools and your own agent:
 * `createMemoryEngine({ store: new InMemoryMemoryStore({ clock }), … })` needs no database. It
 * passes the store contract suite that PGlite and PostgreSQL pass (store-pg's `describeEachStore`
 * suites), with core's write use cases run over its units of work, versions, audit entries, links, expiry by the
 * injected clock, cursors, errors (`INVALID_INPUT` naming `data.field`, `NOT_FOUND`, `CONFLICT`,
 * `DIMENSION_MISMATCH`) and strict tenant separation (each tenant's rows live in their own map).
 *
 * Where it differs from the SQL stores:
 * - Full text: BM25 with per-tenant statistics through core's bm25Score, but the words are
 *   lowercase letter-and-digit runs — no English stemming ("deploys" does not find "deploying")
 *   and no stop words (see in-memory-lexical-list.ts). Question words are still dropped from the
 *   query by the engine (rankingQueryText).
 * - Nearest neighbours are exact (every vector compared), where HNSW is approximate.
 * - One process: units of work (writes, promotions, edits) run one at a time (WriteQueue), so
 *   writes never race; nothing persists.
 * - Nothing is ever purged: the lifecycle jobs' port (LifecycleStore) has no in-memory version.
 */
export class InMemoryMemoryStore implements MemoryStore {
  readonly #tenants = new Map<TenantId, InMemoryTenant>();
  readonly #clock: Clock;
  readonly #ids: IdGenerator;
  /** Units of work run one at a time, as under the SQL stores' write locks. */
  readonly #writes = new WriteQueue();
  #auditSequence = 0;
  /** The vector dimensionality every stored vector shares. */
  readonly vectorSpace: InMemoryVectorSpace;

  constructor(options: InMemoryMemoryStoreOptions) {
    this.#clock = options.clock;
    this.#ids = options.ids ?? new SequentialIdGenerator(options.clock);
    this.vectorSpace = options.vectorSpace ?? new InMemoryVectorSpace();
  }

  // Every other method does its work without an await in between, so a call sees and leaves the
  // rows in one consistent state; a unit of work, which core's use case awaits step by step, runs
  // in the queue, and each of its steps checks the rows as they are (as under the SQL locks).

  async insertAsGiven(tenant: TenantId, memory: NewMemory, actor: Actor): Promise<MemoryRecord> {
    checkNewMemory(memory);
    if (memory.embedding) this.checkEmbedding(memory.embedding);
    const now = this.#clock.now();
    const row = newStoredMemory({ id: this.#ids.next(), tenant, memory, now, contradicted: false });
    this.tenant(tenant).addRow(row, actor, now);
    return toRecord(row);
  }

  async writeUnit<T>(tenant: TenantId, actor: Actor, memory: NewMemory, work: (unit: NewMemoryUnit) => Promise<T>): Promise<T> {
    checkNewMemory(memory);
    if (memory.embedding) this.checkEmbedding(memory.embedding);
    return this.#writes.run(() => work(new InMemoryNewMemoryUnit(this.unitContext(tenant, actor), tenant, memory)));
  }

  async promotionUnit<T>(tenant: TenantId, actor: Actor, id: string, work: (unit: PromotionUnit) => Promise<T>): Promise<T> {
    return this.#writes.run(async () => {
      const context = this.unitContext(tenant, actor);
      return work(new InMemoryPromotionUnit(context, this.liveRow(tenant, id, context.now)));
    });
  }

  async findById(tenant: TenantId, id: string, options: { includeDeleted?: boolean } = {}): Promise<MemoryRecord | undefined> {
    const row = this.#tenants.get(tenant)?.rows.get(id);
    const now = this.#clock.now();
    return row && (options.includeDeleted ? isUnexpiredAt(row, now) : isLiveAt(row, now)) ? toRecord(row) : undefined;
  }

  async findLiveByIds(tenant: TenantId, ids: readonly string[]): Promise<readonly MemoryRecord[]> {
    const now = this.#clock.now();
    const rows = this.#tenants.get(tenant)?.rows;
    return [...new Set(ids)].flatMap((id) => {
      const row = rows?.get(id);
      return row && isLiveAt(row, now) ? [toRecord(row)] : [];
    });
  }

  async readCountingAccess(tenant: TenantId, id: string): Promise<MemoryRecord | undefined> {
    const now = this.#clock.now();
    const row = this.#tenants.get(tenant)?.rows.get(id);
    if (!row || !isLiveAt(row, now)) return undefined;
    row.accessCount++;
    row.lastAccessedAt = now;
    return toRecord(row);
  }

  async mostImportant(
    tenant: TenantId,
    query: { limit: number; scope?: string; tags?: readonly string[] },
  ): Promise<readonly MemoryRecord[]> {
    checkLimit(query.limit);
    const now = this.#clock.now();
    return this.rowsOf(tenant)
      .filter((row) => matchesFilters(row, { scope: query.scope, tags: query.tags }, now))
      .sort((a, b) => b.importanceScore - a.importanceScore || newestFirst(a, b))
      .slice(0, query.limit)
      .map(toRecord);
  }

  async list(tenant: TenantId, query: ListMemoriesQuery): Promise<MemoryPage> {
    checkLimit(query.limit);
    const { cursor } = query;
    // A cursor is the last id of a page. Any UUID is accepted, as the SQL stores accept one (it is
    // only a position); an id from a custom IdGenerator must be one of the tenant's.
    if (cursor !== undefined && !UUID.test(cursor) && !this.#tenants.get(tenant)?.rows.has(cursor)) {
      throw new MemsvcError('INVALID_INPUT', 'cursor is not one this server returned (expected the nextCursor of a previous page)', {
        field: 'cursor',
      });
    }
    const now = this.#clock.now();
    const rows = this.rowsOf(tenant)
      .filter((row) => matchesFilters(row, query, now) && (cursor === undefined || row.id < cursor))
      .sort(newestFirst)
      .slice(0, query.limit + 1);
    const items = rows.slice(0, query.limit).map(toRecord);
    return { items, nextCursor: rows.length > query.limit ? items.at(-1)?.id : undefined };
  }

  async updateUnit<T>(tenant: TenantId, actor: Actor, id: string, patch: MemoryPatch, work: (unit: UpdateUnit) => Promise<T>): Promise<T> {
    if (patch.embedding) this.checkEmbedding(patch.embedding);
    return this.#writes.run(async () => {
      const context = this.unitContext(tenant, actor);
      return work(new InMemoryUpdateUnit(context, this.liveRow(tenant, id, context.now), patch));
    });
  }

  async softDelete(tenant: TenantId, id: string, actor: Actor): Promise<boolean> {
    const now = this.#clock.now();
    const row = this.#tenants.get(tenant)?.rows.get(id);
    if (!row || !isLiveAt(row, now)) return false;
    const before = toRecord(row);
    changeRow(row, { deletedAt: now }, true, now);
    this.tenant(tenant).writeAudit({ memoryId: id, actor, action: 'delete', version: row.version, before, after: toRecord(row), at: now });
    return true;
  }

  async restore(tenant: TenantId, id: string, actor: Actor, options: { version?: number } = {}): Promise<MemoryRecord> {
    const now = this.#clock.now();
    const found = this.#tenants.get(tenant)?.rows.get(id);
    const row = found && isUnexpiredAt(found, now) ? found : undefined;
    return restoreMemory(this.tenant(tenant), row, { id, actor, now, version: options.version }, (restored, change) =>
      changeRow(restored, change, true, now),
    );
  }

  async versionsAsOf(tenant: TenantId, query: VersionsAsOfQuery): Promise<VersionsAsOf> {
    const at = query.at.getTime();
    const then = (this.#tenants.get(tenant)?.audit ?? []).filter((entry) => entry.createdAt.getTime() <= at);
    const wanted = query.ids === undefined ? undefined : new Set(query.ids);
    // Entries are appended in id order, so the last one of a memory is its newest.
    const newest = new Map<string, AuditEntry>();
    for (const entry of then) if (!wanted || wanted.has(entry.memoryId)) newest.set(entry.memoryId, entry);
    const entries = [...newest.values()].sort((a, b) => newestFirst({ id: a.memoryId }, { id: b.memoryId }));
    return {
      entries: entries.slice(0, query.limit).map(copyAuditEntry),
      truncated: entries.length > query.limit,
      tenantHadMemories: then.length > 0,
    };
  }

  async auditTrail(tenant: TenantId, id: string, limit: number): Promise<readonly AuditEntry[]> {
    checkLimit(limit);
    const entries = (this.#tenants.get(tenant)?.audit ?? []).filter((entry) => entry.memoryId === id);
    return entries.reverse().slice(0, limit).map(copyAuditEntry);
  }

  async links(tenant: TenantId, id: string, limit: number): Promise<readonly MemoryLinkRecord[]> {
    checkLimit(limit);
    const held = this.#tenants.get(tenant)?.links ?? [];
    // Kept in the order they were made: oldest first, as the SQL stores order by creation.
    return held
      .filter((link) => link.sourceMemoryId === id || link.targetMemoryId === id)
      .slice(0, limit)
      .map((link) => ({
        id: link.id,
        sourceMemoryId: link.sourceMemoryId,
        targetMemoryId: link.targetMemoryId,
        targetLocator: `id:${link.targetMemoryId}`,
        rel: link.relType,
        // Write rules make derived links; a caller's `supersedes` makes authored ones.
        origin: link.origin ?? 'derived',
        score: link.score,
        note: null,
        createdAt: new Date(link.createdAt),
      }));
  }

  async linksOf(tenant: TenantId, ids: readonly string[], perMemory: number): Promise<ReadonlyMap<string, readonly MemoryLinkRecord[]>> {
    checkLimit(perMemory);
    const byMemory = new Map<string, readonly MemoryLinkRecord[]>();
    for (const id of new Set(ids)) {
      const links = await this.links(tenant, id, perMemory);
      if (links.length > 0) byMemory.set(id, links);
    }
    return byMemory;
  }

  async recordAccess(tenant: TenantId, ids: readonly string[]): Promise<void> {
    const now = this.#clock.now();
    // A memory returned twice counts twice, as in the SQL stores' batched count.
    for (const id of ids) {
      const row = this.#tenants.get(tenant)?.rows.get(id);
      if (!row || row.deletedAt !== null) continue;
      row.accessCount++;
      row.lastAccessedAt = now;
    }
  }

  // A vector is derived data, not content: setting it neither bumps the version nor writes an audit entry.
  async setEmbedding(tenant: TenantId, id: string, embedding: MemoryEmbedding): Promise<boolean> {
    this.checkEmbedding(embedding);
    const row = this.#tenants.get(tenant)?.rows.get(id);
    if (!row || row.deletedAt !== null) return false;
    row.vector = toStoredVector(embedding.vector);
    row.embeddingModel = embedding.model;
    return true;
  }

  async recallCandidates(tenant: TenantId, query: RecallCandidateQuery): Promise<readonly RecallCandidate[]> {
    if (query.vector) checkFinite(query.vector);
    // No vector stored yet, or a query vector of another size: full text alone can still answer.
    const usable = query.vector && this.vectorSpace.current?.dimensions === query.vector.length;
    const vector = usable && query.vector ? toStoredVector(query.vector) : null;
    const held = this.#tenants.get(tenant);
    return held ? recallCandidates(held, { ...query, vector }) : [];
  }

  async precedingMemories(tenant: TenantId, query: PrecedingMemoryQuery): Promise<readonly MemoryRecord[]> {
    const held = this.#tenants.get(tenant);
    return held ? precedingMemories(held, query, this.#clock.now()).map(toRecord) : [];
  }

  async nearest(tenant: TenantId, vector: readonly number[], limit: number): Promise<readonly NearestMemory[]> {
    checkLimit(limit);
    const space = this.vectorSpace.current;
    if (!space) return [];
    checkFinite(vector);
    // The vector space's message tells the operator how to recover.
    if (space.dimensions !== vector.length) this.vectorSpace.ensureNow(vector.length, null);
    const now = this.#clock.now();
    const query = toStoredVector(vector);
    const nearest: NearestMemory[] = [];
    for (const row of this.rowsOf(tenant)) {
      const similarity = row.vector && isLiveAt(row, now) ? cosineSimilarity(row.vector, query) : undefined;
      if (similarity !== undefined) nearest.push({ memory: toRecord(row), similarity });
    }
    return nearest.sort((a, b) => b.similarity - a.similarity).slice(0, limit);
  }

  /**
   * Everything the store holds for one tenant (or all), deleted and expired rows and the search
   * context included: what a test checks where a SQL test would select rows.
   */
  contents(tenant?: TenantId): InMemoryStoreContents {
    const held = tenant === undefined ? [...this.#tenants.values()] : [this.#tenants.get(tenant)].filter((t) => t !== undefined);
    return {
      memories: held.flatMap((t) => [...t.rows.values()].map((row) => ({ ...toRecord(row), searchContext: row.searchContext }))),
      audit: held.flatMap((t) => t.audit.map(copyAuditEntry)),
      links: held.flatMap((t) => t.links.map((link) => ({ ...link }))),
    };
  }

  /**
   * Removes memories of a tenant for good, with their audit entries and links (InMemoryErasureStore
   * erases through it); returns how many of each went. An id the tenant does not have is skipped.
   */
  eraseForGood(tenant: TenantId, ids: readonly string[]): { memories: number; versions: number; links: number } {
    const held = this.#tenants.get(tenant);
    if (!held) return { memories: 0, versions: 0, links: 0 };
    const erased = new Set(ids.filter((id) => held.rows.delete(id)));
    const keep = <T>(list: T[], kept: (item: T) => boolean) => {
      const before = list.length;
      list.splice(0, list.length, ...list.filter(kept));
      return before - list.length;
    };
    const versions = keep(held.audit, (entry) => !erased.has(entry.memoryId));
    const links = keep(held.links, (link) => !erased.has(link.sourceMemoryId) && !erased.has(link.targetMemoryId));
    return { memories: erased.size, versions, links };
  }

  /** The ids of every row of a tenant, deleted ones included. */
  idsOf(tenant: TenantId): readonly string[] {
    return this.rowsOf(tenant).map((row) => row.id);
  }

  private unitContext(tenant: TenantId, actor: Actor): InMemoryUnitContext {
    return { tenant: this.tenant(tenant), actor, ids: this.#ids, now: this.#clock.now() };
  }

  private liveRow(tenant: TenantId, id: string, now: Date): StoredMemory {
    const row = this.#tenants.get(tenant)?.rows.get(id);
    if (!row || !isLiveAt(row, now)) throw new MemsvcError('NOT_FOUND', `memory ${id} was not found`, { memoryId: id });
    return row;
  }

  private rowsOf(tenant: TenantId): StoredMemory[] {
    return [...(this.#tenants.get(tenant)?.rows.values() ?? [])];
  }

  /** The tenant's data, created on its first write (reads of an unknown tenant create nothing). */
  private tenant(tenant: TenantId): InMemoryTenant {
    let held = this.#tenants.get(tenant);
    if (!held) {
      held = new InMemoryTenant(() => ++this.#auditSequence);
      this.#tenants.set(tenant, held);
    }
    return held;
  }

  private checkEmbedding(embedding: MemoryEmbedding): void {
    checkFinite(embedding.vector);
    this.vectorSpace.ensureNow(embedding.vector.length, embedding.model);
  }
}

/** An audit entry the caller may change without changing the trail. */
function copyAuditEntry(entry: AuditEntry): AuditEntry {
  return { ...entry, before: copyJson(entry.before), after: copyJson(entry.after), createdAt: new Date(entry.createdAt) };
}
