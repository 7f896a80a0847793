import type { ContradictionPolicy } from '../domain/contradiction-policy.js';
import { DEFAULT_EMBEDDING_MODEL } from '../domain/embedding-models.js';
import { importanceScore } from '../domain/importance.js';
import type { AuditEntry, MemoryEmbedding, MemoryMarker, MemoryPatch, MemoryRecord, MemoryTier } from '../domain/memory.js';
import {
  checkContent,
  checkImportance,
  checkMergedMetadata,
  checkMetadata,
  checkScope,
  checkTags,
  checkTtlSeconds,
} from '../domain/memory-limits.js';
import { FUSION_WEIGHTS, type FusionWeights } from '../domain/recall-ranking.js';
import {
  buildSearchContext,
  conversationReference,
  isConversationMemory,
  isConversationTurn,
  NEIGHBOUR_TURNS,
} from '../domain/search-context.js';
import { type SimilarityRules, writeRules } from '../domain/similarity-rules.js';
import { type SupersessionRequest, supersessionRequest } from '../domain/supersession-plan.js';
import type { TenantId } from '../domain/tenant.js';
import type { WriteDecision } from '../domain/write-decision.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { Actor, MemoryLinkRecord, MemoryPage, MemoryStore, WriteOutcome } from '../ports/memory-store.js';
import { NO_TRACING, type Tracer, type TraceSpan } from '../ports/tracer.js';
import { type AsOfGaps, getAsOf, listAsOf } from './as-of-reads.js';
import { promoteMemory } from './promote-memory.js';
import { type RecallInput, type RecallResult, recall } from './recall.js';
import { databaseStage, embedInSpan } from './traced-stages.js';
import { updateMemory } from './update-memory.js';
import { writeMemory } from './write-memory.js';

/** How many of a tenant's most recent memories are searched for the turn before a new one. */
const PRECEDING_MEMORY_WINDOW = 200;
/** Memories written further apart than this are not one session's neighbours. */
const SESSION_GAP_MS = 30 * 60_000;

/** The configuration the engine uses (a slice of MemsvcConfig). */
export interface EngineSettings {
  readonly similarity: SimilarityRules;
  readonly importanceHalfLifeDays: number;
}

/** The spec's defaults (§2.5): duplicate ≥ 0.97, contradiction band [0.8, 0.97) flagged, half-life 14 days. */
export const DEFAULT_ENGINE_SETTINGS: EngineSettings = Object.freeze({
  similarity: Object.freeze({
    duplicateThreshold: 0.97,
    contradictionThreshold: 0.8,
    contradictionThresholdMax: 0.97,
    contradictionPolicy: 'flag' as const,
  }),
  importanceHalfLifeDays: 14,
});

export interface MemoryEngineOptions {
  readonly store: MemoryStore;
  readonly embedder: Embedder;
  readonly clock: Clock;
  /** Defaults to DEFAULT_ENGINE_SETTINGS. */
  readonly settings?: EngineSettings;
  /** How recall weighs its two lists; FUSION_WEIGHTS of the provider in use (default: chosen by the embedder's model). */
  readonly fusion?: FusionWeights;
  /** Failures of work done after an answer (access counting); default: ignored. */
  readonly onBackgroundError?: (error: unknown) => void;
  /** Spans for create and recall with their stages (embed, database, rank); default: none. */
  readonly tracer?: Tracer;
}

/** Who is asking, on whose memories. */
export interface CallContext {
  readonly tenant: TenantId;
  readonly actor: Actor;
}

export interface CreateMemoryInput {
  readonly content: string;
  readonly tier: MemoryTier;
  readonly scope?: string | null;
  readonly tags?: readonly string[];
  readonly metadata?: unknown;
  readonly importance?: number | null;
  readonly pinned?: boolean;
  /** Short-term lifetime in seconds (60–604,800; default one day). Ignored for long-term. */
  readonly ttlSeconds?: number;
  /** Words the memory should also be found by, embedded and indexed with it but never returned. */
  readonly searchContext?: string;
  /**
   * Ids of memories this one replaces (a changed fact the caller knows of): retired in the same
   * transaction, versioned, audited as `supersede`, restorable (supersession-plan.ts).
   */
  readonly supersedes?: readonly string[] | undefined;
}

/** A memory a write retired at its caller's request (`supersedes`), and its version that did it. */
export interface SupersededMemory {
  readonly memoryId: string;
  /** The version that carries the mark; restore_memory with `version - 1` undoes it. */
  readonly version: number;
}

/** What a create did: stored a new memory, or found it already remembered. */
export interface CreateResult {
  readonly memory: MemoryRecord;
  readonly outcome: 'created' | 'duplicate';
  /** For a duplicate: the similarity to the existing memory and whether the text was identical. */
  readonly duplicate?: { readonly similarity: number; readonly exact: boolean };
  /** Existing memories this one contradicts, and what the policy did to them. */
  readonly contradictions: readonly { readonly memoryId: string; readonly similarity: number; readonly policy: ContradictionPolicy }[];
  /** False when the memory was stored without a vector (provider down or disabled). */
  readonly embedded: boolean;
  /**
   * Live memories this one may update or contradict, with why (R-FACT-RELATED): a changed fact
   * (now marked `replacedBy` this memory) or a contradiction in the similarity band. The caller
   * decides what to do with them; their content is stored text, untrusted.
   */
  readonly related: readonly RelatedMemory[];
  /** The memories named in `supersedes`, now retired behind `memory`. */
  readonly superseded: readonly SupersededMemory[];
}

/** A live memory a write may update or contradict. */
export interface RelatedMemory {
  readonly id: string;
  readonly content: string;
  readonly createdAt: Date;
  readonly why: 'changed-fact' | 'contradiction';
  /** For a changed fact: what the older memory said that the new one replaces. */
  readonly replacedValues?: readonly string[];
}

export interface UpdateMemoryInput {
  readonly content?: string;
  readonly tags?: readonly string[];
  /** Merged into the current metadata; a key set to null is removed. */
  readonly metadata?: unknown;
  readonly importance?: number | null;
  readonly pinned?: boolean;
  /** Short-term only: the memory now expires this many seconds from now. */
  readonly ttlSeconds?: number;
  /** Ids of memories the updated one replaces (as CreateMemoryInput.supersedes); never its own id. */
  readonly supersedes?: readonly string[] | undefined;
}

/** What an update did: the memory as it is now, and the memories it retired. */
export interface UpdateResult {
  readonly memory: MemoryRecord;
  readonly superseded: readonly SupersededMemory[];
}

export interface ListInput {
  readonly tier?: MemoryTier;
  readonly scope?: string;
  readonly tags?: readonly string[];
  readonly limit: number;
  readonly cursor?: string;
  readonly includeSuperseded?: boolean;
  readonly marker?: MemoryMarker;
  readonly createdFrom?: Date;
  readonly createdTo?: Date;
  /** Deleted (restorable) memories only, newest first; not with `asOf`. */
  readonly onlyDeleted?: boolean;
  /** List as the memories were at this moment (as-of-reads.ts). */
  readonly asOf?: Date;
}

/**
 * The memory engine: memsvc's use-cases written against ports, usable without any app.
 * Writes follow spec §3.2 (duplicates collapse, contradictions are flagged or superseded) in one
 * transaction under the tenant's lock; reads never return expired, deleted or (unless asked)
 * superseded rows; every mutation is versioned and audited.
 */
export class MemoryEngine {
  constructor(private readonly options: MemoryEngineOptions) {}

  /** Stores a memory, or reports the existing one it duplicates (spec §3.2 rules 1–2). */
  create(context: CallContext, input: CreateMemoryInput): Promise<CreateResult> {
    return this.tracer.inSpan('memory.create', { 'memsvc.memory.tier': input.tier }, (span) => this.createInSpan(context, input, span));
  }

  private async createInSpan(context: CallContext, input: CreateMemoryInput, span: TraceSpan): Promise<CreateResult> {
    const content = checkContent(input.content);
    const tags = checkTags(input.tags);
    const scope = checkScope(input.scope);
    const metadata = checkMetadata(input.metadata);
    const importance = checkImportance(input.importance);
    const pinned = input.pinned ?? false;
    const now = this.options.clock.now();
    const ttlSeconds = input.tier === 'stm' ? checkTtlSeconds(input.ttlSeconds) : undefined;
    const supersede = supersessionRequest(input.supersedes);
    const searchContext =
      input.searchContext?.trim() || (await this.contextFromCaller(context.tenant, { content, scope, tags, metadata }, now));
    // The vector is the content's alone: the write rules compare what memories say, and two turns
    // with the same neighbours and date must not look like duplicates or contradictions. The
    // context reaches recall through the lexical index.
    const embedding = await this.embed(content);
    const outcome = await databaseStage(this.tracer, 'write', () =>
      writeMemory(
        this.options.store,
        context.tenant,
        {
          tier: input.tier,
          scope,
          content,
          tags,
          metadata,
          importance,
          pinned,
          importanceScore: importanceScore(
            { importance, accessCount: 0, pinned, createdAt: now, lastAccessedAt: null },
            now,
            this.settings.importanceHalfLifeDays,
          ),
          expiresAt: ttlSeconds === undefined ? null : new Date(now.getTime() + ttlSeconds * 1000),
          embedding: embedding ?? null,
          searchContext: searchContext ?? null,
        },
        context.actor,
        // A conversation turn is what was said then, not a standing fact: no changed-fact detection.
        writeRules(this.settings.similarity, isConversationMemory({ content, metadata }) ? {} : { content }),
        supersede ? { supersede } : undefined,
      ),
    );
    const result = toCreateResult(outcome, embedding !== undefined);
    span.setAttributes({
      'memsvc.memory.id': result.memory.id,
      'memsvc.memory.outcome': result.outcome,
      'memsvc.memory.embedded': result.embedded,
      'memsvc.memory.contradictions': result.contradictions.length,
    });
    return result;
  }

  /**
   * The search context of a memory written by `create_memory`: what its caller said about it,
   * and the memories just before it. With a conversation in the metadata, those are the
   * conversation's previous turns. Without one, a memory written as a conversation turn
   * ("Caroline: …", as ingest writes turns too) gets the tenant's latest memories of the same
   * scope written in the last SESSION_GAP_MS: a client that stores a conversation turn by turn
   * is writing one conversation. A plain fact gets no neighbours (and costs no lookup).
   */
  private async contextFromCaller(
    tenant: TenantId,
    memory: { content: string; scope: string | null; tags: readonly string[]; metadata: Readonly<Record<string, unknown>> },
    now: Date,
  ): Promise<string | undefined> {
    const conversation = conversationReference(memory.metadata);
    const previous =
      conversation.id !== undefined || isConversationTurn(memory.content)
        ? await databaseStage(this.tracer, 'preceding-memories', () =>
            this.options.store.precedingMemories(tenant, {
              count: NEIGHBOUR_TURNS,
              conversationId: conversation.id,
              beforeTurn: conversation.id === undefined ? undefined : conversation.turn,
              scope: memory.scope,
              since: new Date(now.getTime() - SESSION_GAP_MS),
              window: PRECEDING_MEMORY_WINDOW,
            }),
          )
        : [];
    return buildSearchContext({ ...memory, ...conversation, previous: previous.map((earlier) => earlier.content) });
  }

  /**
   * One memory; reading counts as an access (spec §2.1). NOT_FOUND for absent or foreign ids.
   * With `asOf`, the memory as it was then (no access counted; as-of-reads.ts).
   */
  async get(context: CallContext, id: string, options: { asOf?: Date | undefined } = {}): Promise<MemoryRecord> {
    if (options.asOf !== undefined) return getAsOf(this.options, context.tenant, id, options.asOf);
    const memory = await this.options.store.readCountingAccess(context.tenant, id);
    if (!memory) throw notFound(id);
    return memory;
  }

  /** The memories most relevant to a query, best first (see recall.ts). */
  recall(context: CallContext, input: RecallInput): Promise<RecallResult> {
    const { store, embedder, clock } = this.options;
    const fusion = this.options.fusion ?? defaultFusion(embedder.model);
    return recall(
      { store, embedder, clock, fusion, onBackgroundError: this.options.onBackgroundError ?? (() => undefined), tracer: this.tracer },
      context.tenant,
      input,
    );
  }

  /**
   * One memory without counting a read (previews, checks); NOT_FOUND as for get. With
   * `includeDeleted`, a deleted (restorable) memory too, so its page can offer the restore.
   */
  async peek(context: CallContext, id: string, options: { includeDeleted?: boolean } = {}): Promise<MemoryRecord> {
    const memory = await this.options.store.findById(context.tenant, id, options.includeDeleted ? { includeDeleted: true } : {});
    if (!memory) throw notFound(id);
    return memory;
  }

  /** The live, unsuperseded memories with the highest importance score, both tiers. */
  async mostImportant(
    context: CallContext,
    input: { limit: number; scope?: string; tags?: readonly string[] },
  ): Promise<readonly MemoryRecord[]> {
    return this.options.store.mostImportant(context.tenant, {
      limit: input.limit,
      ...(input.scope !== undefined ? { scope: checkScope(input.scope) ?? undefined } : {}),
      ...(input.tags && input.tags.length > 0 ? { tags: checkTags(input.tags) } : {}),
    });
  }

  /** A page of memories, newest first, across both tiers unless one is asked for; with `asOf`, as they were then. */
  async list(context: CallContext, input: ListInput): Promise<MemoryPage & { readonly asOf?: AsOfGaps }> {
    if (input.asOf !== undefined && input.onlyDeleted) {
      throw new MemsvcError('INVALID_INPUT', 'onlyDeleted lists what can be restored now, so it cannot be combined with asOf', {
        field: 'onlyDeleted',
      });
    }
    if (input.asOf !== undefined) {
      return listAsOf(this.options, context.tenant, {
        asOf: input.asOf,
        limit: input.limit,
        cursor: input.cursor,
        filters: {
          tier: input.tier,
          scope: input.scope === undefined ? undefined : checkScope(input.scope),
          tags: input.tags && input.tags.length > 0 ? checkTags(input.tags) : undefined,
          includeSuperseded: input.includeSuperseded,
          marker: input.marker,
          createdFrom: input.createdFrom,
          createdTo: input.createdTo,
        },
      });
    }
    return this.options.store.list(context.tenant, {
      limit: input.limit,
      ...(input.tier ? { tier: input.tier } : {}),
      ...(input.scope !== undefined ? { scope: checkScope(input.scope) ?? undefined } : {}),
      ...(input.tags && input.tags.length > 0 ? { tags: checkTags(input.tags) } : {}),
      ...(input.cursor ? { cursor: input.cursor } : {}),
      ...(input.includeSuperseded ? { includeSuperseded: true } : {}),
      ...(input.onlyDeleted ? { onlyDeleted: true } : {}),
      ...(input.marker ? { marker: input.marker } : {}),
      ...(input.createdFrom ? { createdFrom: input.createdFrom } : {}),
      ...(input.createdTo ? { createdTo: input.createdTo } : {}),
    });
  }

  /**
   * Edits a memory under optimistic concurrency: `expectedVersion` must be the version the
   * caller read, or the update is refused with CONFLICT. Metadata merges, and the merged object
   * must fit the metadata limit; tags replace only when given; new content is re-embedded (or
   * left without a vector when the provider is down). Refused input changes nothing.
   */
  async update(context: CallContext, id: string, input: UpdateMemoryInput, expectedVersion: number): Promise<MemoryRecord> {
    return (await this.revise(context, id, input, expectedVersion)).memory;
  }

  /** update, reporting the memories it retired (`supersedes`) too: what update_memory returns. */
  async revise(context: CallContext, id: string, input: UpdateMemoryInput, expectedVersion: number): Promise<UpdateResult> {
    const supersede = supersessionRequest(input.supersedes, id);
    if (!Number.isInteger(expectedVersion) || expectedVersion < 1) {
      throw new MemsvcError('INVALID_INPUT', 'expectedVersion must be the version you read (a whole number ≥ 1)', {
        field: 'expectedVersion',
      });
    }
    const current = await this.options.store.findById(context.tenant, id);
    if (!current) throw notFound(id);
    const patch: { -readonly [K in keyof MemoryPatch]: MemoryPatch[K] } = {};
    // The limit holds for what is stored, so the merge is checked, not only the patch (and before
    // any embedding is paid for).
    if (input.metadata !== undefined) patch.metadata = checkMergedMetadata(current.metadata, checkMetadata(input.metadata));
    if (input.content !== undefined) {
      patch.content = checkContent(input.content);
      if (patch.content !== current.content) patch.embedding = (await this.embed(patch.content)) ?? null;
    }
    if (input.tags !== undefined) patch.tags = checkTags(input.tags);
    if (input.importance !== undefined) patch.importance = checkImportance(input.importance);
    if (input.pinned !== undefined) patch.pinned = input.pinned;
    if (input.ttlSeconds !== undefined) {
      if (current.tier !== 'stm') throw new MemsvcError('INVALID_INPUT', 'ttl applies to short-term memories only', { field: 'ttl' });
      patch.expiresAt = new Date(this.options.clock.now().getTime() + checkTtlSeconds(input.ttlSeconds) * 1000);
    }
    patch.importanceScore = importanceScore(
      {
        importance: patch.importance !== undefined ? patch.importance : current.importance,
        accessCount: current.accessCount,
        pinned: patch.pinned ?? current.pinned,
        createdAt: current.createdAt,
        lastAccessedAt: current.lastAccessedAt,
      },
      this.options.clock.now(),
      this.settings.importanceHalfLifeDays,
    );
    const memory = await updateMemory(this.options.store, context.tenant, id, patch, {
      expectedVersion,
      actor: context.actor,
      action: 'update',
      ...(supersede ? { supersede } : {}),
    });
    return { memory, superseded: await this.supersededNow(context, supersede) };
  }

  /** The memories an update retired, as they are now (read after its transaction: only when `supersedes` was given). */
  private async supersededNow(context: CallContext, supersede: SupersessionRequest | undefined): Promise<SupersededMemory[]> {
    if (!supersede) return [];
    const found = await Promise.all(supersede.ids.map((id) => this.options.store.findById(context.tenant, id)));
    return found.filter((memory) => memory !== undefined).map((memory) => ({ memoryId: memory.id, version: memory.version }));
  }

  /** Deletes a memory (restorable). False when there was no such memory. */
  delete(context: CallContext, id: string): Promise<boolean> {
    return this.options.store.softDelete(context.tenant, id, context.actor);
  }

  /** Deletes up to 100 memories; one missing id does not stop the others. */
  async bulkDelete(context: CallContext, ids: readonly string[]): Promise<{ deleted: string[]; notFound: string[] }> {
    const unique = [...new Set(ids)];
    if (unique.length === 0 || unique.length > 100) {
      throw new MemsvcError('INVALID_INPUT', 'memoryIds must hold 1 to 100 ids', { field: 'memoryIds' });
    }
    const deleted: string[] = [];
    const notFound: string[] = [];
    for (const id of unique) ((await this.options.store.softDelete(context.tenant, id, context.actor)) ? deleted : notFound).push(id);
    return { deleted, notFound };
  }

  /**
   * Moves a short-term memory to long-term, keeping its id, under the write rules: if it
   * duplicates a long-term memory, that one is returned and the short-term row is deleted.
   */
  async promote(
    context: CallContext,
    id: string,
  ): Promise<{ memory: MemoryRecord; outcome: 'promoted' | 'duplicate' | 'already-long-term' }> {
    const current = await this.options.store.findById(context.tenant, id);
    if (!current) throw notFound(id);
    if (current.tier === 'ltm') return { memory: current, outcome: 'already-long-term' };
    if (!current.hasEmbedding) {
      const vector = await this.embed(current.content);
      if (vector) await this.options.store.setEmbedding(context.tenant, id, vector);
    }
    const outcome = await promoteMemory(this.options.store, context.tenant, id, context.actor, this.settings.similarity);
    return { memory: outcome.memory, outcome: outcome.decision.kind === 'collapse' ? 'duplicate' : 'promoted' };
  }

  /** Brings back a deleted memory, or an earlier version's content; re-embeds when content changed. */
  async restore(context: CallContext, id: string, version?: number): Promise<MemoryRecord> {
    const restored = await this.options.store.restore(context.tenant, id, context.actor, version === undefined ? {} : { version });
    if (restored.hasEmbedding) return restored;
    const embedding = await this.embed(restored.content);
    if (!embedding) return restored;
    await this.options.store.setEmbedding(context.tenant, id, embedding);
    return { ...restored, hasEmbedding: true, embeddingModel: embedding.model };
  }

  /** Computes the vector again from the current content (after a provider outage, or a model change). */
  async reembed(context: CallContext, id: string): Promise<MemoryRecord> {
    const current = await this.options.store.findById(context.tenant, id);
    if (!current) throw notFound(id);
    const embedding = await this.embed(current.content);
    if (!embedding) {
      throw new MemsvcError(
        'STORAGE_UNAVAILABLE',
        'the embedding provider is unavailable or disabled; the memory keeps its current vector — retry later',
        {
          memoryId: id,
        },
      );
    }
    await this.options.store.setEmbedding(context.tenant, id, embedding);
    return { ...current, hasEmbedding: true, embeddingModel: embedding.model };
  }

  /** The audit trail of a memory, newest first (deleted memories included). */
  async audit(context: CallContext, id: string, limit = 50): Promise<readonly AuditEntry[]> {
    const entries = await this.options.store.auditTrail(context.tenant, id, limit);
    if (entries.length === 0) throw notFound(id);
    return entries;
  }

  /**
   * The links of a memory in both directions (contradicts, supersedes, duplicate-of, …), oldest
   * first, at most `limit`. Empty for a memory without links, and for an id that is not the
   * caller's: the tenant bounds the read, so it reveals nothing of another tenant.
   */
  links(context: CallContext, id: string, limit = 100): Promise<readonly MemoryLinkRecord[]> {
    return this.options.store.links(context.tenant, id, limit);
  }

  /** The engine clock's now: what "how long ago" in a context block counts from. */
  now(): Date {
    return this.options.clock.now();
  }

  private get settings(): EngineSettings {
    return this.options.settings ?? DEFAULT_ENGINE_SETTINGS;
  }

  private get tracer(): Tracer {
    return this.options.tracer ?? NO_TRACING;
  }

  private async embed(content: string): Promise<MemoryEmbedding | undefined> {
    const { embedder } = this.options;
    const vectors = await embedInSpan(this.tracer, embedder, [content]);
    const vector = vectors?.[0];
    return vector && embedder.model ? { vector, model: embedder.model } : undefined;
  }
}

/** Creates the engine; the README's "embed memsvc in your agent" entry point. */
export function createMemoryEngine(options: MemoryEngineOptions): MemoryEngine {
  return new MemoryEngine(options);
}

/** Without an explicit choice: none for no embedder, local's for the local model, a semantic model's otherwise. */
function defaultFusion(model: string | undefined): FusionWeights {
  if (model === undefined) return FUSION_WEIGHTS.disabled;
  return model === DEFAULT_EMBEDDING_MODEL.local ? FUSION_WEIGHTS.local : FUSION_WEIGHTS.ollama;
}

function notFound(id: string): MemsvcError {
  return new MemsvcError('NOT_FOUND', `memory ${id} was not found`, { memoryId: id });
}

function toCreateResult(outcome: WriteOutcome, embedded: boolean): CreateResult {
  const decision: WriteDecision = outcome.decision;
  const superseded = (outcome.superseded ?? []).map((memory) => ({ memoryId: memory.id, version: memory.version }));
  if (decision.kind === 'collapse') {
    return {
      memory: outcome.memory,
      outcome: 'duplicate',
      duplicate: { similarity: decision.similarity, exact: decision.exact },
      contradictions: [],
      embedded,
      related: [],
      superseded,
    };
  }
  return {
    memory: outcome.memory,
    outcome: 'created',
    contradictions: decision.contradictions.map((neighbour) => ({
      memoryId: neighbour.memory.id,
      similarity: neighbour.similarity,
      policy: decision.policy,
    })),
    embedded,
    related: [
      ...decision.changes.map(({ memory, replacedValues }) => ({
        id: memory.id,
        content: memory.content,
        createdAt: memory.createdAt,
        why: 'changed-fact' as const,
        replacedValues,
      })),
      ...decision.contradictions.map(({ memory }) => ({
        id: memory.id,
        content: memory.content,
        createdAt: memory.createdAt,
        why: 'contradiction' as const,
      })),
    ],
    superseded,
  };
}
