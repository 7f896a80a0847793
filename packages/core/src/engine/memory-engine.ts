import type { ContextBlock } from '../domain/context-block.js';
import type { ErasureCheck, ErasureReceipt } from '../domain/erasure.js';
import type { AuditEntry, MemoryRecord } from '../domain/memory.js';
import type { GrantRequest, MemoryGrant, SharedSpace } from '../domain/memory-grants.js';
import { checkScope, checkTags } from '../domain/memory-limits.js';
import type { RecallFilters } from '../domain/recall-filters.js';
import type { ContextEntry } from '../domain/replacement-order.js';
import { toTenantId } from '../domain/tenant.js';
import { isMemsvcError, MemsvcError } from '../errors/memsvc-error.js';
import type { MemoryLinkRecord, MemoryPage } from '../ports/memory-store.js';
import {
  type ForgetInput,
  type ForgetResult,
  forget,
  type ReflectInput,
  type ReflectResult,
  type RememberInput,
  type RememberResult,
  reflect,
  remember,
} from './agent-memory.js';
import { type AsOfGaps, getAsOf } from './as-of-reads.js';
import { compressContext, type LoadContextInput, loadContext, promptContext, type QueryContextResult } from './context-builders.js';
import { type CreateMemoryInput, type CreateResult, createMemory } from './create-memory.js';
import {
  type CallContext,
  type EngineParts,
  embedContent,
  engineParts,
  type MemoryEngineOptions,
  memoryNotFound,
  recallFusion,
} from './engine-parts.js';
import { erasedError, eraseMemories, eraseTenant, verifyErasure } from './erase-memories.js';
import { chooseSharedDefault, grantAccess, listGrants, revokeGrant } from './grant-access.js';
import { type IngestInput, type IngestResult, ingestConversation } from './ingest-conversation.js';
import { type ListInput, listMemories } from './list-memories.js';
import type { MemoryOperations } from './memory-operations.js';
import { promoteMemory } from './promote-memory.js';
import { inReadingOrder } from './reading-order.js';
import { type RecallInput, type RecallResult, recall } from './recall.js';
import { reviseMemory, type UpdateMemoryInput, type UpdateResult } from './revise-memory.js';
import { type SharedSelection, type SpaceName, selectedSpaces, sharedMemory, sharedWriter, writerFor } from './shared-spaces.js';

/**
 * The memory engine: memsvc's use-cases written against ports, usable without any app — the one
 * face of the library for what an agent or a person does with their memories. Writes follow spec
 * §3.2 (duplicates collapse, contradictions are flagged or superseded, changed facts replaced) in
 * one transaction under the tenant's lock, decided here and nowhere else; reads never return
 * expired, deleted or (unless asked) superseded rows; every mutation is versioned and audited.
 * Upkeep across tenants (jobs, reindex, review) is Maintenance.
 */
export class MemoryEngine implements MemoryOperations {
  private readonly parts: EngineParts;

  constructor(options: MemoryEngineOptions) {
    this.parts = engineParts(options);
  }

  /**
   * Stores a memory, or reports the existing one it duplicates (spec §3.2 rules 1–2). With
   * `owner`, into that owner's space `scope`, which a live grant must give the caller read-write
   * on; the write rules are the owner's and the audit names the grantee.
   */
  async create(context: CallContext, input: CreateMemoryInput & { readonly owner?: string | undefined }): Promise<CreateResult> {
    return createMemory(this.parts, await writerFor(this.parts, context, input.owner, input.scope), input);
  }

  /** `remember`: create with the tier chosen from the text when `type` is auto. */
  remember(context: CallContext, input: RememberInput): Promise<RememberResult> {
    return remember(this, context, input);
  }

  /** `ingest_conversation`: every turn stored as long-term memories with its conversational context. */
  ingestConversation(context: CallContext, input: IngestInput): Promise<IngestResult> {
    return ingestConversation(this, context, input);
  }

  /**
   * One memory; reading counts as an access (spec §2.1). NOT_FOUND for absent or foreign ids.
   * With `asOf`, the memory as it was then (no access counted; as-of-reads.ts).
   */
  async get(context: CallContext, id: string, options: { asOf?: Date | undefined } = {}): Promise<MemoryRecord> {
    if (options.asOf !== undefined) return getAsOf(this.parts, context.tenant, id, options.asOf);
    const memory = await this.parts.store.readCountingAccess(context.tenant, id);
    if (memory) return memory;
    // Another owner's memory in a space shared with the caller: read, not counted as the owner's access.
    const shared = await sharedMemory(this.parts, context, id, 'read');
    if (!shared) throw memoryNotFound(id);
    return shared.memory;
  }

  /**
   * The memories most relevant to a query, best first (see recall.ts), from the caller's own
   * memories and the shared spaces `input.shared` selects (each hit's `userId` is its owner).
   */
  async recall(context: CallContext, input: RecallInput): Promise<RecallResult> {
    const { store, embedder, clock, onBackgroundError, tracer } = this.parts;
    const spaces = input.asOf === undefined ? selectedSpaces(this.parts, context, input.shared) : [];
    // A refused selection must not surface as an unhandled rejection while the query is embedded.
    if (spaces instanceof Promise) spaces.catch(() => undefined);
    return recall({ store, embedder, clock, fusion: recallFusion(this.parts), onBackgroundError, tracer }, context.tenant, input, spaces);
  }

  /** Shares a space of the caller's memories with a user, an organization or an API key (grant-access.ts). */
  grant(context: CallContext, request: GrantRequest & { readonly owner?: string | undefined }): Promise<MemoryGrant> {
    return grantAccess(this.parts, context, request);
  }

  /** Ends one of the caller's grants; the next call of its grantee, on any replica, no longer reads the space. */
  revokeGrant(context: CallContext, grantId: string): Promise<MemoryGrant> {
    return revokeGrant(this.parts, context, grantId);
  }

  /** The grants the caller gave and the live ones it received. */
  grants(context: CallContext, limit?: number): Promise<{ given: readonly MemoryGrant[]; received: readonly MemoryGrant[] }> {
    return listGrants(this.parts, context, limit);
  }

  /** Whether the caller's reads include the space of grant `grantId` without naming it. */
  chooseSharedDefault(context: CallContext, grantId: string, byDefault: boolean): Promise<void> {
    return chooseSharedDefault(this.parts, context, grantId, byDefault);
  }

  /** The spaces shared with the caller that a read with `selection` includes (shared-spaces.ts). */
  sharedSpaces(context: CallContext, selection: SharedSelection = 'all') {
    return selectedSpaces(this.parts, context, selection);
  }

  /**
   * `memories` (a list, best or newest first) in the order an agent reads them: what replaced one
   * right before it, when the list's `filters` admit it (reading-order.ts). Reads the caller's
   * tenant and the `spaces` shared with it; counts no access.
   */
  inReadingOrder(
    context: CallContext,
    memories: readonly MemoryRecord[],
    filters: RecallFilters,
    spaces: readonly SharedSpace[],
  ): Promise<ContextEntry[]> {
    const sources = [
      { tenant: context.tenant, filters },
      ...spaces.map((space) => ({ tenant: toTenantId(space.owner, 'owner'), filters: { ...filters, scope: space.space } })),
    ];
    const items = memories.map((memory) => ({ memory, score: 0 }));
    return inReadingOrder(this.parts.store, context.tenant, sources, items, this.parts.clock.now()).then((entries) =>
      entries.map(({ score: _score, ...entry }) => entry),
    );
  }

  /** `load_context`: recent and important memories for the start of a session, within a character budget. */
  loadContext(context: CallContext, input: LoadContextInput): Promise<ContextBlock> {
    return loadContext(this, context, input);
  }

  /** `prompt_context`: the memories most relevant to a query, within a token budget. */
  promptContext(
    context: CallContext,
    input: RecallInput & { tokenBudget?: number | undefined; minScore?: number | undefined },
  ): Promise<QueryContextResult> {
    return promptContext(this, context, input);
  }

  /** `compress_context`: the memories most relevant to a query, within a character budget. */
  compressContext(
    context: CallContext,
    input: RecallInput & { maxChars?: number | undefined; minScore?: number | undefined },
  ): Promise<QueryContextResult> {
    return compressContext(this, context, input);
  }

  /** `reflect`: what is remembered about a topic, summarised. */
  reflect(context: CallContext, input: ReflectInput): Promise<ReflectResult> {
    return reflect(this, context, input);
  }

  /**
   * One memory without counting a read (previews, checks); NOT_FOUND as for get. With
   * `includeDeleted`, a deleted (restorable) memory too, so its page can offer the restore.
   */
  async getUncounted(context: CallContext, id: string, options: { includeDeleted?: boolean } = {}): Promise<MemoryRecord> {
    const memory = await this.parts.store.findById(context.tenant, id, options.includeDeleted ? { includeDeleted: true } : {});
    if (memory) return memory;
    const shared = await sharedMemory(this.parts, context, id, 'read');
    if (!shared) throw memoryNotFound(id);
    return shared.memory;
  }

  /** The live, unsuperseded memories with the highest importance score, both tiers. */
  async mostImportant(
    context: CallContext,
    input: { limit: number; scope?: string; tags?: readonly string[]; shared?: SpaceName },
  ): Promise<readonly MemoryRecord[]> {
    const space = input.shared === undefined ? undefined : (await selectedSpaces(this.parts, context, [input.shared]))[0];
    if (space) return this.parts.store.mostImportant(space.owner, { limit: input.limit, scope: space.space, ...tagsOnly(input.tags) });
    return this.parts.store.mostImportant(context.tenant, {
      limit: input.limit,
      ...(input.scope !== undefined ? { scope: checkScope(input.scope) ?? undefined } : {}),
      ...(input.tags && input.tags.length > 0 ? { tags: checkTags(input.tags) } : {}),
    });
  }

  /** A page of memories, newest first, across both tiers unless one is asked for; with `asOf`, as they were then. */
  list(context: CallContext, input: ListInput): Promise<MemoryPage & { readonly asOf?: AsOfGaps }> {
    return listMemories(this.parts, context, input);
  }

  /** update_memory without the report of retired memories: the memory as it is now (see revise). */
  async update(context: CallContext, id: string, input: UpdateMemoryInput, expectedVersion: number): Promise<MemoryRecord> {
    return (await this.revise(context, id, input, expectedVersion)).memory;
  }

  /** Edits a memory under optimistic concurrency, reporting the memories it retired (`supersedes`). */
  async revise(context: CallContext, id: string, input: UpdateMemoryInput, expectedVersion: number): Promise<UpdateResult> {
    try {
      return await reviseMemory(this.parts, context, id, input, expectedVersion);
    } catch (error) {
      const writer = isMemsvcError(error, 'NOT_FOUND') ? await sharedWriter(this.parts, context, id) : undefined;
      if (!writer) throw error;
      return reviseMemory(this.parts, writer, id, input, expectedVersion);
    }
  }

  /** `forget`: deletes one memory, or what a query finds (a dry run unless confirmed). */
  forget(context: CallContext, input: ForgetInput): Promise<ForgetResult> {
    return forget(this, context, input);
  }

  /** Deletes a memory (restorable), the caller's or one in a space it may write. False when there was no such memory. */
  async delete(context: CallContext, id: string): Promise<boolean> {
    if (await this.parts.store.softDelete(context.tenant, id, context.actor)) return true;
    const writer = await sharedWriter(this.parts, context, id);
    return writer ? this.parts.store.softDelete(writer.tenant, id, writer.actor) : false;
  }

  /** Deletes up to 100 memories; one missing id does not stop the others. */
  async bulkDelete(context: CallContext, ids: readonly string[]): Promise<{ deleted: string[]; notFound: string[] }> {
    const unique = [...new Set(ids)];
    if (unique.length === 0 || unique.length > 100) {
      throw new MemsvcError('INVALID_INPUT', 'memoryIds must hold 1 to 100 ids', { field: 'memoryIds' });
    }
    const deleted: string[] = [];
    const notFound: string[] = [];
    for (const id of unique) ((await this.parts.store.softDelete(context.tenant, id, context.actor)) ? deleted : notFound).push(id);
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
    const current = await this.parts.store.findById(context.tenant, id);
    if (!current) throw memoryNotFound(id);
    if (current.tier === 'ltm') return { memory: current, outcome: 'already-long-term' };
    if (!current.hasEmbedding) {
      const vector = await embedContent(this.parts, current.content);
      if (vector) await this.parts.store.setEmbedding(context.tenant, id, vector);
    }
    const outcome = await promoteMemory(this.parts.store, context.tenant, id, context.actor, this.parts.settings.similarity);
    return { memory: outcome.memory, outcome: outcome.decision.kind === 'collapse' ? 'duplicate' : 'promoted' };
  }

  /**
   * Erases memories for good: the rows, every version's words, vectors, postings, term statistics,
   * links, import-ledger entries and quotes of them, in one transaction, with a receipt
   * (erase-memories.ts). Not restorable.
   */
  erase(context: CallContext, ids: readonly string[]): Promise<ErasureReceipt> {
    return eraseMemories(this.parts, context, ids);
  }

  /** Erases every memory of the caller (a whole user), in batches under one receipt. */
  eraseAll(context: CallContext): Promise<ErasureReceipt> {
    return eraseTenant(this.parts, context);
  }

  /** Whether nothing of an erasure's memories remains anywhere now, and its record is intact. */
  verifyErasure(context: CallContext, erasureId: string): Promise<ErasureCheck> {
    return verifyErasure(this.parts, context, erasureId);
  }

  /** Brings back a deleted memory, or an earlier version's content; re-embeds when content changed. ERASED for an erased one. */
  async restore(context: CallContext, id: string, version?: number): Promise<MemoryRecord> {
    // Asked first: while a whole user's erasure is pending, its memories are deleted rows that a
    // restore would otherwise bring back (restore is rare; the check is one indexed read).
    const erased = await erasedError(this.parts, context, id);
    if (erased) throw erased;
    const restored = await this.parts.store.restore(context.tenant, id, context.actor, version === undefined ? {} : { version });
    if (restored.hasEmbedding) return restored;
    const embedding = await embedContent(this.parts, restored.content);
    if (!embedding) return restored;
    await this.parts.store.setEmbedding(context.tenant, id, embedding);
    return { ...restored, hasEmbedding: true, embeddingModel: embedding.model };
  }

  /** Computes the vector again from the current content (after a provider outage, or a model change). */
  async reembed(context: CallContext, id: string): Promise<MemoryRecord> {
    const current = await this.parts.store.findById(context.tenant, id);
    if (!current) throw memoryNotFound(id);
    const embedding = await embedContent(this.parts, current.content);
    if (!embedding) {
      throw new MemsvcError(
        'STORAGE_UNAVAILABLE',
        'the embedding provider is unavailable or disabled; the memory keeps its current vector — retry later',
        {
          memoryId: id,
        },
      );
    }
    await this.parts.store.setEmbedding(context.tenant, id, embedding);
    return { ...current, hasEmbedding: true, embeddingModel: embedding.model };
  }

  /** The audit trail of a memory, newest first (deleted memories included). */
  async audit(context: CallContext, id: string, limit = 50): Promise<readonly AuditEntry[]> {
    const entries = await this.parts.store.auditTrail(context.tenant, id, limit);
    if (entries.length === 0) throw memoryNotFound(id);
    return entries;
  }

  /**
   * The links of a memory in both directions (contradicts, supersedes, duplicate-of, …), oldest
   * first, at most `limit`. Empty for a memory without links, and for an id that is not the
   * caller's: the tenant bounds the read, so it reveals nothing of another tenant.
   */
  links(context: CallContext, id: string, limit = 100): Promise<readonly MemoryLinkRecord[]> {
    return this.parts.store.links(context.tenant, id, limit);
  }

  /** The engine clock's now: what "how long ago" in a context block counts from. */
  now(): Date {
    return this.parts.clock.now();
  }
}

function tagsOnly(tags: readonly string[] | undefined): { tags?: readonly string[] } {
  return tags && tags.length > 0 ? { tags: checkTags(tags) } : {};
}

/** Creates the engine; the README's "embed memsvc in your agent" entry point. */
export function createMemoryEngine(options: MemoryEngineOptions): MemoryEngine {
  return new MemoryEngine(options);
}
