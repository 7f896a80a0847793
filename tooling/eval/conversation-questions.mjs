// @ts-check
// The question phases of `pnpm eval:conversations`: every question as one MCP `recall`
// (limit 5) to its conversation's tenant, first one at a time on one client (the rankings that
// are scored, and the unloaded latency), then by 8 clients at once in a closed loop (the latency
// a small team of agents sharing one server sees). Latency is the client's view: performance.now()
// around callTool, so it includes MCP framing and HTTP on loopback.
import { percentileSummary } from '../bench/bench-support.mjs';
import { callTool, tenantOf } from './conversation-writes.mjs';

export const LIMIT = 5;

/**
 * @typedef {import('../bench/bench-support.mjs').McpClient} Client
 * @typedef {import('./locomo-dataset.mjs').Question} Question
 */

/**
 * Asks `questions` ({conv, question, ...}) in order. Returns {rankings, latency, withVector,
 * unmapped}: rankings[i] is question i's results as arrays of dia_ids (via `idToDiaIds` of its
 * conversation), best first; `withVector` counts the answers that used a query vector (a provider
 * failing would silently make every answer full-text only) and `unmapped` the results that name
 * no written turn (there should be none).
 * @param {Client} client
 * @param {string} way
 * @param {Question[]} questions
 * @param {(conv: string) => Map<string, string[]>} idToDiaIdsOf
 */
export async function askSequentially(client, way, questions, idToDiaIdsOf) {
  /** @type {number[]} */
  const samples = [];
  /** @type {string[][][]} */
  const rankings = [];
  let withVector = 0;
  let unmapped = 0;
  for (const question of questions) {
    const started = performance.now();
    const result = await callTool(client, 'recall', { userId: tenantOf(way, question.conv), query: question.question, limit: LIMIT });
    samples.push(performance.now() - started);
    // `vector`, not `semantic`: the local embedder's query vector counts too (it hashes words, so recall calls it not semantic).
    if (result.vector) withVector++;
    const idToDiaIds = idToDiaIdsOf(question.conv);
    rankings.push(
      result.results.map((/** @type {{ id: string }} */ { id }) => {
        const diaIds = idToDiaIds.get(id);
        if (!diaIds) unmapped++;
        return diaIds ?? [];
      }),
    );
  }
  return { rankings, latency: percentileSummary(samples), withVector, unmapped };
}

/**
 * Every question once, split round-robin across `clients`, each client asking its share back to
 * back. Returns {latency, perSecond} over all the calls.
 * @param {Client[]} clients
 * @param {string} way
 * @param {Question[]} questions
 */
export async function askConcurrently(clients, way, questions) {
  /** @type {number[]} */
  const samples = [];
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, c) => {
      for (let i = c; i < questions.length; i += clients.length) {
        const question = /** @type {Question} */ (questions[i]);
        const began = performance.now();
        await callTool(client, 'recall', { userId: tenantOf(way, question.conv), query: question.question, limit: LIMIT });
        samples.push(performance.now() - began);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { latency: percentileSummary(samples), perSecond: Math.round(questions.length / seconds) };
}
