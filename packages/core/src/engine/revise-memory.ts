import { importanceScore } from '../domain/importance.js';
import type { MemoryPatch, MemoryRecord } from '../domain/memory.js';
import { checkContent, checkImportance, checkMergedMetadata, checkMetadata, checkTags, checkTtlSeconds } from '../domain/memory-limits.js';
import { type SupersessionRequest, supersessionRequest } from '../domain/supersession-plan.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import { type RelatedMemory, relatedResult, type SupersededMemory } from './create-memory.js';
import { type CallContext, type EngineParts, embedContent, memoryNotFound } from './engine-parts.js';
import { updateMemory } from './update-memory.js';

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

/** What an update did: the memory as it is now, the memories it retired, and what its new content may change. */
export interface UpdateResult {
  readonly memory: MemoryRecord;
  readonly superseded: readonly SupersededMemory[];
  /**
   * When the update changed the content: the live memories the new statement may change, with
   * why, as a create returns them (CreateResult.related: at most MAX_RELATED, never this memory,
   * nor one it retired or now duplicates); an update marks none of them replaced — pass their ids
   * in `supersedes`. Empty when the content did not change (tags, metadata, importance, pin, ttl).
   */
  readonly related: readonly RelatedMemory[];
}

/**
 * Edits a memory under optimistic concurrency: `expectedVersion` must be the version the
 * caller read, or the update is refused with CONFLICT. Metadata merges, and the merged object
 * must fit the metadata limit; tags replace only when given; new content is re-embedded (or
 * left without a vector when the provider is down). Refused input changes nothing. Reports the
 * memories it retired (`supersedes`) and, for new content, the related memories too: what
 * update_memory returns.
 */
export async function reviseMemory(
  parts: EngineParts,
  context: CallContext,
  id: string,
  input: UpdateMemoryInput,
  expectedVersion: number,
): Promise<UpdateResult> {
  const supersede = supersessionRequest(input.supersedes, { ownId: id, space: context.grantSpace });
  if (!Number.isInteger(expectedVersion) || expectedVersion < 1) {
    throw new MemsvcError('INVALID_INPUT', 'expectedVersion must be the version you read (a whole number ≥ 1)', {
      field: 'expectedVersion',
    });
  }
  const current = await parts.store.findById(context.tenant, id);
  if (!current) throw memoryNotFound(id);
  const patch: { -readonly [K in keyof MemoryPatch]: MemoryPatch[K] } = {};
  // The limit holds for what is stored, so the merge is checked, not only the patch (and before
  // any embedding is paid for).
  if (input.metadata !== undefined) patch.metadata = checkMergedMetadata(current.metadata, checkMetadata(input.metadata));
  if (input.content !== undefined) {
    patch.content = checkContent(input.content);
    if (patch.content !== current.content) patch.embedding = (await embedContent(parts, patch.content)) ?? null;
  }
  const contentChanged = patch.content !== undefined && patch.content !== current.content;
  if (input.tags !== undefined) patch.tags = checkTags(input.tags);
  if (input.importance !== undefined) patch.importance = checkImportance(input.importance);
  if (input.pinned !== undefined) patch.pinned = input.pinned;
  if (input.ttlSeconds !== undefined) {
    if (current.tier !== 'stm') throw new MemsvcError('INVALID_INPUT', 'ttl applies to short-term memories only', { field: 'ttl' });
    patch.expiresAt = new Date(parts.clock.now().getTime() + checkTtlSeconds(input.ttlSeconds) * 1000);
  }
  patch.importanceScore = importanceScore(
    {
      importance: patch.importance !== undefined ? patch.importance : current.importance,
      accessCount: current.accessCount,
      pinned: patch.pinned ?? current.pinned,
      createdAt: current.createdAt,
      lastAccessedAt: current.lastAccessedAt,
    },
    parts.clock.now(),
    parts.settings.importanceHalfLifeDays,
  );
  const { memory, findings } = await updateMemory(
    parts.store,
    context.tenant,
    id,
    patch,
    { expectedVersion, actor: context.actor, action: 'update', ...(supersede ? { supersede } : {}) },
    // Only a new statement can change another memory's fact; a retag or a new pin says nothing new.
    contentChanged ? { rules: parts.settings.similarity, space: context.grantSpace } : undefined,
  );
  return { memory, superseded: await supersededNow(parts, context, supersede), related: relatedResult(findings) };
}

/** The memories an update retired, as they are now (read after its transaction: only when `supersedes` was given). */
async function supersededNow(
  parts: EngineParts,
  context: CallContext,
  supersede: SupersessionRequest | undefined,
): Promise<SupersededMemory[]> {
  if (!supersede) return [];
  const found = await Promise.all(supersede.ids.map((id) => parts.store.findById(context.tenant, id)));
  return found.filter((memory) => memory !== undefined).map((memory) => ({ memoryId: memory.id, version: memory.version }));
}
