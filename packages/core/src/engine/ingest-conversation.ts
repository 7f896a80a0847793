import { MEMORY_LIMITS } from '../domain/memory-limits.js';
import { buildSearchContext, NEIGHBOUR_TURNS } from '../domain/search-context.js';
import { fnv1a64Hex } from '../domain/stable-hash.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { CallContext } from './engine-parts.js';
import type { MemoryOperations } from './memory-operations.js';

export const MAX_TURNS = 500;
export const MAX_CHUNKS = 500;

export interface ConversationTurn {
  readonly role: string;
  readonly content: string;
}

export interface IngestInput {
  readonly turns: readonly ConversationTurn[];
  /** Your id for the conversation; by default one derived from its turns (so a re-send is recognised). */
  readonly conversationId?: string | undefined;
  /** When the conversation took place (ISO date); indexed with every turn. */
  readonly date?: Date | undefined;
  readonly scope?: string | undefined;
  readonly tags?: readonly string[] | undefined;
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
}

export interface IngestResult {
  readonly conversationId: string;
  /** Chunks stored as new memories. */
  readonly ingested: number;
  /** Chunks already remembered (a re-ingest, or a repeated sentence). */
  readonly skipped: number;
  readonly total: number;
  /** One per chunk, in order: the new or existing memory. */
  readonly memoryIds: readonly string[];
}

/** A turn's text split at paragraph boundaries (then hard) into pieces that fit a memory. */
export function chunkTurn(role: string, content: string): string[] {
  const prefix = `${role}: `;
  const room = MEMORY_LIMITS.contentMaxChars - prefix.length;
  const whole = content.trim();
  if (whole.length <= room) return [prefix + whole];
  const chunks: string[] = [];
  let current = '';
  for (const paragraph of whole.split(/\n\s*\n/)) {
    for (let start = 0; start < paragraph.length; start += room) {
      const piece = paragraph.slice(start, start + room);
      if (current && current.length + 2 + piece.length > room) {
        chunks.push(prefix + current);
        current = '';
      }
      current = current ? `${current}\n\n${piece}` : piece;
    }
  }
  if (current) chunks.push(prefix + current);
  return chunks;
}

/**
 * `ingest_conversation`: every turn becomes long-term memories ("<role>: <text>", chunked when
 * long) with provenance in metadata (`conversation: {id, turn, chunk, role, date}`). Each chunk
 * is indexed with its conversational context (buildSearchContext) — the two turns before it, the
 * speaker, the date and the absolute dates of its relative ones ("yesterday") —
 * so "what did the assistant say about the staging port?" finds the answer "5433" though the
 * words "staging" and "port" were only in the question. Writes go through the duplicate rules,
 * so sending the same conversation again stores nothing and reports every chunk as skipped.
 */
export async function ingestConversation(engine: MemoryOperations, context: CallContext, input: IngestInput): Promise<IngestResult> {
  if (input.turns.length < 1 || input.turns.length > MAX_TURNS) {
    throw new MemsvcError('INVALID_INPUT', `turns must hold 1 to ${MAX_TURNS} turns`, { field: 'turns' });
  }
  input.turns.forEach((turn, index) => {
    if (!turn.role.trim() || turn.role.length > 100)
      throw new MemsvcError('INVALID_INPUT', `turns[${index}].role must be 1 to 100 characters`, { field: `turns.${index}.role` });
    if (!turn.content.trim())
      throw new MemsvcError('INVALID_INPUT', `turns[${index}].content must not be empty`, { field: `turns.${index}.content` });
  });
  const chunked = input.turns.map((turn) => chunkTurn(turn.role.trim(), turn.content));
  const total = chunked.reduce((sum, chunks) => sum + chunks.length, 0);
  if (total > MAX_CHUNKS)
    throw new MemsvcError('INVALID_INPUT', `the turns make ${total} chunks; at most ${MAX_CHUNKS} per call`, { field: 'turns' });

  const conversationId =
    input.conversationId ??
    `conv-${fnv1a64Hex(input.turns.map((turn) => `${turn.role}\u0000${turn.content}`).join('\u0001')).slice(0, 16)}`;
  const date = input.date?.toISOString().slice(0, 10);
  const memoryIds: string[] = [];
  let ingested = 0;
  for (const [turnIndex, chunks] of chunked.entries()) {
    const turn = input.turns[turnIndex] as ConversationTurn;
    const searchContext = buildSearchContext({
      content: turn.content,
      date: input.date,
      speaker: turn.role,
      previous: input.turns
        .slice(Math.max(0, turnIndex - NEIGHBOUR_TURNS), turnIndex)
        .reverse()
        .map((earlier) => earlier.content),
      scope: input.scope,
      tags: input.tags,
      metadata: input.metadata,
    });
    for (const [chunkIndex, content] of chunks.entries()) {
      const created = await engine.create(context, {
        tier: 'ltm',
        content,
        scope: input.scope,
        tags: input.tags,
        metadata: {
          ...input.metadata,
          conversation: { id: conversationId, turn: turnIndex, chunk: chunkIndex, role: turn.role, ...(date ? { date } : {}) },
        },
        searchContext,
      });
      if (created.outcome === 'created') ingested++;
      memoryIds.push(created.memory.id);
    }
  }
  return { conversationId, ingested, skipped: total - ingested, total, memoryIds };
}
