import { asksQuestion } from './asking-turn.js';
import type { MemoryRecord } from './memory.js';
import { conversationReference } from './search-context.js';

/**
 * Conversation support: a conversation turn is lifted by the turns around it that match a query.
 *
 * Follow-ups: a turn whose next turns match a query is lifted towards them.
 * People answer, then talk about the answer: "I'm an assistant manager now" is followed by
 * "Congrats on the promotion!", and the question "what was John promoted to?" matches the
 * follow-up better than the answer. The search context already indexes each turn with the turns
 * before it (the question leads to the answer); this is the other direction, applied at query
 * time to the candidates only, so it costs no statement and no index.
 *
 *   score = match + (1 − match) · min(1, weight · Σ_{k=1..turns} match(turn + k) / k)
 *
 * It stays in [0, 1], never lowers a score, and lifts a weak match more than a strong one.
 * Measured on the LoCoMo development conversations (ingest, `local` embedder): evidence-recall@5
 * rose for weight 0.3 to 0.7 (0.4 chosen from the middle of that range); lifting every turn by
 * the turns before it instead lowered it (the search context covers that direction).
 *
 * Replies: the one turn before that does count is a question (asking-turn.ts). When a question
 * turn matches ("What inspired you?" for "what inspired Caroline's painting?"), the turn right
 * after it is its answer more often than not, though it shares few of the query's words:
 *
 *   score = s + (1 − s) · min(1, replyWeight · match(asking turn − 1))
 *
 * where s is the score after follow-up support. Measured the same way: ingest 0.678 → 0.697 with
 * the asking discount, for replyWeight 0.4 to 0.7 alike (0.5 chosen).
 */
export const FOLLOW_UP_SUPPORT: FollowUpRules = Object.freeze({ weight: 0.4, turns: 2, replyWeight: 0.5 });

/** How much the turns around a memory lift it. */
export interface FollowUpRules {
  /** How much the turns after a memory lift it; 0 turns follow-up support off. */
  readonly weight: number;
  /** How many turns after a memory count. */
  readonly turns: number;
  /** How much a question turn right before a memory lifts it (its reply); 0 turns reply support off. */
  readonly replyWeight: number;
}

/** A scored candidate: its memory and its own match for the query, in [0, 1]. */
export interface MatchedMemory {
  readonly memory: Pick<MemoryRecord, 'metadata' | 'content'>;
  readonly matchScore: number;
}

/**
 * Each candidate's score with follow-up support from the other candidates (same order as given).
 * Only memories with a conversation reference (`conversationId` + `turn` in metadata, or the
 * `conversation` that ingest writes) take part; a chunked turn counts by its best chunk, and a
 * question turn by its best asking chunk.
 */
export function withFollowUpSupport(candidates: readonly MatchedMemory[], rules: FollowUpRules = FOLLOW_UP_SUPPORT): number[] {
  return conversationSupport(candidates, rules).map((support) => support.afterReply);
}

/** A candidate's score after each kind of conversation support, so `explain` can show both. */
export interface ConversationSupport {
  /** The score lifted by the turns after it. */
  readonly afterFollowUps: number;
  /** That score lifted by the question it replies to: the score with all support. */
  readonly afterReply: number;
}

/** withFollowUpSupport, step by step: each candidate's score after follow-ups and after its reply. */
export function conversationSupport(candidates: readonly MatchedMemory[], rules: FollowUpRules = FOLLOW_UP_SUPPORT): ConversationSupport[] {
  const positions = candidates.map(({ memory }) => {
    const reference = conversationReference(memory.metadata);
    return reference.id !== undefined && reference.turn !== undefined ? { id: reference.id, turn: reference.turn } : undefined;
  });
  const bestAt = new Map<string, number>();
  const bestAskingAt = new Map<string, number>();
  const key = (id: string, turn: number) => `${turn}\u0000${id}`;
  positions.forEach((position, i) => {
    const candidate = candidates[i];
    if (!position || !candidate) return;
    const at = key(position.id, position.turn);
    bestAt.set(at, Math.max(bestAt.get(at) ?? 0, candidate.matchScore));
    if (asksQuestion(candidate.memory.content)) bestAskingAt.set(at, Math.max(bestAskingAt.get(at) ?? 0, candidate.matchScore));
  });
  return candidates.map(({ matchScore }, i) => {
    const position = positions[i];
    if (!position) return { afterFollowUps: matchScore, afterReply: matchScore };
    let followUps = 0;
    for (let k = 1; k <= rules.turns; k++) followUps += (bestAt.get(key(position.id, position.turn + k)) ?? 0) / k;
    const lifted = matchScore + (1 - matchScore) * Math.min(1, Math.max(0, rules.weight) * followUps);
    const question = bestAskingAt.get(key(position.id, position.turn - 1)) ?? 0;
    return { afterFollowUps: lifted, afterReply: lifted + (1 - lifted) * Math.min(1, Math.max(0, rules.replyWeight) * question) };
  });
}
