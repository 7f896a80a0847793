import { type ConversationPlace, continuedConversation } from '../domain/continued-conversation.js';
import type { ContradictionPolicy } from '../domain/contradiction-policy.js';
import { importanceScore } from '../domain/importance.js';
import type { MemoryRecord, MemoryTier } from '../domain/memory.js';
import { checkContent, checkImportance, checkMetadata, checkScope, checkTags, checkTtlSeconds } from '../domain/memory-limits.js';
import type { RelatedReason } from '../domain/related-memories.js';
import {
  buildSearchContext,
  conversationReference,
  isConversationMemory,
  isConversationTurn,
  NEIGHBOUR_TURNS,
} from '../domain/search-context.js';
import { type EditFindings, writeRules } from '../domain/similarity-rules.js';
import { supersessionRequest } from '../domain/supersession-plan.js';
import type { TenantId } from '../domain/tenant.js';
import type { WriteDecision } from '../domain/write-decision.js';
import type { WriteOutcome } from '../ports/memory-store.js';
import type { TraceSpan } from '../ports/tracer.js';
import { type CallContext, type EngineParts, embedContent } from './engine-parts.js';
import { databaseStage } from './traced-stages.js';
import { writeMemory } from './write-memory.js';

/** How many of a tenant's most recent memories are searched for the turn before a new one. */
const PRECEDING_MEMORY_WINDOW = 200;
/** Memories written further apart than this are not one session's neighbours. */
const SESSION_GAP_MS = 30 * 60_000;

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
   * Live memories this one may update or contradict, with why (R-FACT-RELATED, related-memories.ts):
   * a changed fact (a create marks it `replacedBy` this memory; an update marks nothing), a contradiction in the similarity band,
   * or a candidate the write could not decide on (`may-change`: same topic, another value…); at
   * most MAX_RELATED, the surest first. The caller decides, and passes `supersedes` for the ones
   * the new memory replaces; their content is stored text, untrusted.
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
  readonly why: 'changed-fact' | 'contradiction' | 'may-change';
  /** Why, in a few words ("same topic, different value"). */
  readonly reason: RelatedReason;
  /** For a changed fact: what the older memory said that the new one replaces. */
  readonly replacedValues?: readonly string[];
}

/** Stores a memory, or reports the existing one it duplicates (spec §3.2 rules 1–2). */
export function createMemory(parts: EngineParts, context: CallContext, input: CreateMemoryInput): Promise<CreateResult> {
  return parts.tracer.inSpan('memory.create', { 'memsvc.memory.tier': input.tier }, (span) => createInSpan(parts, context, input, span));
}

async function createInSpan(parts: EngineParts, context: CallContext, input: CreateMemoryInput, span: TraceSpan): Promise<CreateResult> {
  const content = checkContent(input.content);
  const tags = checkTags(input.tags);
  const scope = checkScope(input.scope);
  const callersMetadata = checkMetadata(input.metadata);
  const importance = checkImportance(input.importance);
  const pinned = input.pinned ?? false;
  const now = parts.clock.now();
  const ttlSeconds = input.tier === 'stm' ? checkTtlSeconds(input.ttlSeconds) : undefined;
  const supersede = supersessionRequest(input.supersedes, { space: context.grantSpace });
  // A caller that gives the search context (ingest_conversation) has placed the memory itself.
  const givenContext = input.searchContext?.trim();
  const placed = givenContext
    ? { searchContext: givenContext, conversation: undefined }
    : await placeFromCaller(parts, context.tenant, { content, scope, tags, metadata: callersMetadata }, now);
  const metadata = placed.conversation ? { ...callersMetadata, conversation: placed.conversation } : callersMetadata;
  const searchContext = placed.searchContext;
  // The vector is the content's alone: the write rules compare what memories say, and two turns
  // with the same neighbours and date must not look like duplicates or contradictions. The
  // context reaches recall through the lexical index.
  const embedding = await embedContent(parts, content);
  const outcome = await databaseStage(parts.tracer, 'write', () =>
    writeMemory(
      parts.store,
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
          parts.settings.importanceHalfLifeDays,
        ),
        expiresAt: ttlSeconds === undefined ? null : new Date(now.getTime() + ttlSeconds * 1000),
        embedding: embedding ?? null,
        searchContext: searchContext ?? null,
      },
      context.actor,
      // A conversation turn is what was said then, not a standing fact: no changed-fact detection.
      writeRules(parts.settings.similarity, isConversationMemory({ content, metadata }) ? {} : { content }),
      { ...(supersede ? { supersede } : {}), ...(context.grantSpace !== undefined ? { space: context.grantSpace } : {}) },
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
 * The search context of a memory written by `create_memory` — what its caller said about it, and
 * the memories just before it — and, for a turn its caller did not place, its place in the
 * conversation (continued-conversation.ts). With a conversation in the metadata, the memories
 * before it are the conversation's previous turns. Without one, a memory written as a
 * conversation turn ("Caroline: …", as ingest writes turns too) gets the tenant's latest memories
 * of the same scope written in the last SESSION_GAP_MS: a client that stores a conversation turn
 * by turn is writing one conversation. A plain fact gets no neighbours (and costs no lookup).
 */
async function placeFromCaller(
  parts: EngineParts,
  tenant: TenantId,
  memory: { content: string; scope: string | null; tags: readonly string[]; metadata: Readonly<Record<string, unknown>> },
  now: Date,
): Promise<{ searchContext: string | undefined; conversation: ConversationPlace | undefined }> {
  const conversation = conversationReference(memory.metadata);
  const previous =
    conversation.id !== undefined || isConversationTurn(memory.content)
      ? await databaseStage(parts.tracer, 'preceding-memories', () =>
          parts.store.precedingMemories(tenant, {
            count: NEIGHBOUR_TURNS,
            conversationId: conversation.id,
            beforeTurn: conversation.id === undefined ? undefined : conversation.turn,
            scope: memory.scope,
            since: new Date(now.getTime() - SESSION_GAP_MS),
            window: PRECEDING_MEMORY_WINDOW,
          }),
        )
      : [];
  return {
    searchContext: buildSearchContext({ ...memory, ...conversation, previous: previous.map((earlier) => earlier.content) }),
    conversation: conversation.id === undefined ? continuedConversation(memory, previous, now) : undefined,
  };
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
    related: relatedResult(decision),
    superseded,
  };
}

/** The related memories of a write or an edit as its result lists them, each with the values a changed fact replaces. */
export function relatedResult(findings: Pick<EditFindings, 'related' | 'changes'>): RelatedMemory[] {
  return findings.related.map(({ memory, reason }) => {
    const replacedValues = findings.changes.find((change) => change.memory.id === memory.id)?.replacedValues;
    return {
      id: memory.id,
      content: memory.content,
      createdAt: memory.createdAt,
      why: reason === 'changed fact' ? 'changed-fact' : reason === 'contradiction' ? 'contradiction' : 'may-change',
      reason,
      ...(replacedValues ? { replacedValues } : {}),
    };
  });
}
