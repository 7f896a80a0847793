import { conversationReference, isConversationMemory } from './search-context.js';
import { fnv1a64Hex } from './stable-hash.js';

/** Where a memory sits in a conversation, as `ingest_conversation` records it: `metadata.conversation`. */
export type ConversationPlace = { readonly id: string; readonly turn: number };

/** A memory written just before a new one (newest first), as the write's preceding-memories lookup returns it. */
interface EarlierMemory {
  readonly content: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/**
 * The place in a conversation of a turn stored by `create_memory` without one: a memory written
 * as "<speaker>: <text>" whose metadata names no conversation (and has no `conversation` key of
 * its own). A client storing a conversation turn by turn is writing one conversation, so the turn
 * continues the conversation of the turn written just before it (`earlier[0]`, found among the
 * same scope's memories of the last 30 minutes): the same id, the next turn. Without such a turn
 * before it, it starts a conversation of its own (turn 0, an id derived from when and what was
 * said). Recall's conversation support (follow-up-support.ts) needs these places: without them a
 * turn-by-turn client got none of it (LoCoMo evidence-recall@5 0.670 against 0.710 with the
 * client's own conversation metadata). Undefined for anything else: a plain fact, or a memory
 * whose caller placed it.
 */
export function continuedConversation(
  memory: { readonly content: string; readonly metadata: Readonly<Record<string, unknown>> },
  earlier: readonly EarlierMemory[],
  now: Date,
): ConversationPlace | undefined {
  if (memory.metadata.conversation !== undefined || !isConversationMemory(memory)) return undefined;
  const before = earlier[0];
  if (before && isConversationMemory(before)) {
    const place = conversationReference(before.metadata);
    if (place.id !== undefined && place.turn !== undefined) return { id: place.id, turn: place.turn + 1 };
  }
  return { id: `conv-${fnv1a64Hex(`${now.toISOString()}\u0000${memory.content}`)}`, turn: 0 };
}
