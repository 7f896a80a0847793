// @ts-check
// How the LongMemEval part of `pnpm eval:conversations` writes one question's history into its own
// tenant through the server's MCP tools:
//   ingest  one ingest_conversation per session, in the order the sessions took place, with the
//           session's date and time (what an agent that files each chat when it ends sends);
//   turns   one create_memory per turn ("<role>: <text>", a long turn split as ingest splits it).
// Each returns the map memory id → turns ({key, sessionId}) the scoring reads: identical turns
// collapse into one memory, which then stands for all of them.
import { chunkTurn } from '@memsvc/core';
import { callTool } from './conversation-writes.mjs';

export const LME_WAYS = ['ingest', 'turns'];

/**
 * @typedef {import('./longmemeval-metrics.mjs').RankedTurn} RankedTurn
 * @typedef {import('./longmemeval-dataset.mjs').LongMemEvalQuestion} LongMemEvalQuestion
 */

/** A tenant per (way, question). */
export const lmeTenantOf = (/** @type {string} */ way, /** @type {string} */ questionId) => `lme-${way}-${questionId}`;

/**
 * @param {Map<string, RankedTurn[]>} idToTurns
 * @param {string} memoryId
 * @param {RankedTurn} turn
 */
function remember(idToTurns, memoryId, turn) {
  const turns = idToTurns.get(memoryId);
  if (turns) turns.push(turn);
  else idToTurns.set(memoryId, [turn]);
}

/**
 * Writes `question`'s history `way`'s way on `client`. Returns {idToTurns, calls, created, skipped}.
 * @param {import('../bench/bench-support.mjs').McpClient} client
 * @param {string} way
 * @param {LongMemEvalQuestion} question
 */
export async function writeHistory(client, way, question) {
  const userId = lmeTenantOf(way, question.id);
  /** @type {Map<string, RankedTurn[]>} */
  const idToTurns = new Map();
  let calls = 0;
  let created = 0;
  let skipped = 0;
  for (const session of question.sessions) {
    // A handful of turns are empty: a memory cannot be, and an empty turn answers nothing.
    const turns = session.turns.filter((turn) => turn.content.trim() !== '');
    if (turns.length === 0) continue;
    const owned = turns.map((turn) => ({ key: turn.key, sessionId: session.id }));
    if (way === 'ingest') {
      const result = await callTool(client, 'ingest_conversation', {
        userId,
        conversationId: `lme-${session.id}`.slice(0, 128),
        date: session.at,
        turns: turns.map((turn) => ({ role: turn.role, content: turn.content })),
      });
      calls++;
      created += result.ingested;
      skipped += result.skipped;
      // memoryIds has one entry per chunk, in turn order; core's own splitter says how many a turn makes.
      let next = 0;
      turns.forEach((turn, i) => {
        for (const _ of chunkTurn(turn.role.trim(), turn.content))
          remember(idToTurns, result.memoryIds[next++], /** @type {RankedTurn} */ (owned[i]));
      });
      if (next !== result.memoryIds.length)
        throw new Error(`ingest of ${userId} session ${session.id}: ${result.memoryIds.length} ids for ${next} chunks`);
    } else {
      for (const [i, turn] of turns.entries()) {
        for (const content of chunkTurn(turn.role.trim(), turn.content)) {
          const result = await callTool(client, 'create_memory', { userId, content, type: 'long-term' });
          calls++;
          if (result.outcome === 'created') created++;
          else skipped++;
          remember(idToTurns, result.memory.id, /** @type {RankedTurn} */ (owned[i]));
        }
      }
    }
  }
  return { idToTurns, calls, created, skipped };
}
