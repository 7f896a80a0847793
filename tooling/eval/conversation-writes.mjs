// @ts-check
// The three ways `pnpm eval:conversations` writes a LoCoMo conversation into memsvc, through the
// server's MCP tools, each conversation into its own tenant:
//   turns          one create_memory per turn, content only (what a plain client sends);
//   turns+context  the same plus the metadata a client naturally has (conversation, turn, date);
//   ingest         one ingest_conversation per session, with the session's date.
// Each returns the map memory id → dia_ids used to score recall: identical turns collapse into
// one memory (the duplicate rule), and that memory then stands for every one of them.
import { chunkTurn } from '@memsvc/core';

/**
 * @typedef {import('../bench/bench-support.mjs').McpClient} Client
 * @typedef {import('./locomo-dataset.mjs').Conversation} Conversation
 */

export const WAYS = ['turns', 'turns+context', 'ingest'];

/** A tenant per (way, conversation); `+` is allowed in user ids but kept out for readability. */
export const tenantOf = (/** @type {string} */ way, /** @type {string} */ conv) => `locomo-${way.replace('+', '-')}-${conv}`;

/**
 * structuredContent of a successful tool call; a tool error becomes a thrown Error.
 * @param {Client} client
 * @param {string} name
 * @param {Record<string, unknown>} args
 * @returns {Promise<any>} the tool's JSON result, shaped by the tool
 */
export async function callTool(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) {
    const error = /** @type {{ error?: { code: string, message: string } } | undefined} */ (result.structuredContent)?.error;
    throw new Error(`${name} failed: ${error ? `${error.code} ${error.message}` : JSON.stringify(result.content)}`);
  }
  return result.structuredContent;
}

/**
 * @param {Map<string, string[]>} idToDiaIds
 * @param {string} memoryId
 * @param {string} diaId
 */
function remember(idToDiaIds, memoryId, diaId) {
  const diaIds = idToDiaIds.get(memoryId);
  if (diaIds) diaIds.push(diaId);
  else idToDiaIds.set(memoryId, [diaId]);
}

/**
 * Writes one conversation `way`'s way, in turn order, on `client`. Returns {idToDiaIds, calls,
 * outcomes: {created, duplicate, ...}, contradictions (rows flagged while writing)}.
 * @param {Client} client
 * @param {string} way
 * @param {Conversation} conversation
 */
export async function writeConversation(client, way, conversation) {
  const userId = tenantOf(way, conversation.id);
  /** @type {Map<string, string[]>} */
  const idToDiaIds = new Map();
  /** @type {Record<string, number>} */
  const outcomes = {};
  let contradictions = 0;
  let calls = 0;
  if (way === 'ingest') {
    for (const session of conversation.sessions) {
      const result = await callTool(client, 'ingest_conversation', {
        userId,
        conversationId: `locomo-${conversation.id}-session-${session.number}`,
        date: session.date.iso,
        turns: session.turns.map((turn) => ({ role: turn.speaker, content: turn.text })),
      });
      calls++;
      outcomes.created = (outcomes.created ?? 0) + result.ingested;
      outcomes.duplicate = (outcomes.duplicate ?? 0) + result.skipped;
      // memoryIds has one entry per chunk, in turn order; a turn over the content limit is
      // split, so the chunk count per turn comes from core's own splitter.
      let next = 0;
      for (const turn of session.turns) {
        const chunks = chunkTurn(turn.speaker.trim(), turn.text).length;
        for (let i = 0; i < chunks; i++) remember(idToDiaIds, result.memoryIds[next++], turn.diaId);
      }
      if (next !== result.memoryIds.length)
        throw new Error(`ingest of ${userId} session ${session.number}: ${result.memoryIds.length} ids for ${next} chunks`);
    }
  } else {
    for (const turn of conversation.turns) {
      /** @type {Record<string, unknown>} */
      const args = { userId, content: turn.content, type: 'long-term' };
      if (way === 'turns+context') args.metadata = { conversationId: conversation.id, turn: turn.index, sessionDate: turn.date.iso };
      const result = await callTool(client, 'create_memory', args);
      calls++;
      outcomes[result.outcome] = (outcomes[result.outcome] ?? 0) + 1;
      contradictions += result.contradictions?.length ?? 0;
      remember(idToDiaIds, result.memory.id, turn.diaId);
    }
  }
  return { idToDiaIds, calls, outcomes, contradictions };
}
