// @ts-check
// Scoring of the LongMemEval part of `pnpm eval:conversations`, as the dataset README defines it:
// turn level (any@5, nDCG@10 over the evidence turns) and session level (recall_any@5,
// recall_all@5 over the answer sessions). A ranked entry is an array of turns ({key, sessionId}):
// a memory that identical turns collapsed into stands for all of them, and the chunks of one long
// turn are several entries naming the same turn.

export const TURN_ANY_AT = 5;
export const NDCG_AT = 10;
export const SESSION_AT = 5;

/** @typedef {{ key: string, sessionId: string }} RankedTurn */

/**
 * {turnAny, turnNdcg} of `ranked` against `evidence` (turn keys). A turn found again further down
 * (another chunk of it) gains nothing the second time, so splitting a turn cannot raise the score.
 * @param {RankedTurn[][]} ranked
 * @param {string[]} evidence
 */
export function scoreTurns(ranked, evidence) {
  const wanted = new Set(evidence);
  const turnAny = ranked.slice(0, TURN_ANY_AT).some((turns) => turns.some((turn) => wanted.has(turn.key))) ? 1 : 0;
  /** @type {Set<string>} */
  const counted = new Set();
  let dcg = 0;
  ranked.slice(0, NDCG_AT).forEach((turns, i) => {
    const fresh = turns.filter((turn) => wanted.has(turn.key) && !counted.has(turn.key));
    if (fresh.length === 0) return;
    for (const turn of fresh) counted.add(turn.key);
    dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(wanted.size, NDCG_AT); i++) ideal += 1 / Math.log2(i + 2);
  return { turnAny, turnNdcg: ideal === 0 ? 0 : dcg / ideal };
}

/**
 * {sessionAny, sessionAll}: `sessionIds` are the sessions of the top entries, best first (repeats allowed).
 * @param {string[]} sessionIds
 * @param {string[]} answerSessionIds
 */
export function scoreSessions(sessionIds, answerSessionIds) {
  const top = new Set(sessionIds);
  return {
    sessionAny: answerSessionIds.some((id) => top.has(id)) ? 1 : 0,
    sessionAll: answerSessionIds.every((id) => top.has(id)) ? 1 : 0,
  };
}

/** The sessions of the first SESSION_AT entries of a turn ranking. */
export const sessionsOfTopTurns = (/** @type {RankedTurn[][]} */ ranked) =>
  ranked.slice(0, SESSION_AT).flatMap((turns) => turns.map((turn) => turn.sessionId));

/**
 * Means of every numeric field of `rows` (all rows share the fields), with the count.
 * @template {Record<string, unknown>} T
 * @param {T[]} rows
 * @returns {T & { n: number }}
 */
export function mean(rows) {
  /** @type {Record<string, number>} */
  const summary = { n: rows.length };
  const result = /** @type {T & { n: number }} */ (/** @type {unknown} */ (summary));
  const first = rows[0];
  if (rows.length === 0 || first === undefined) return result;
  for (const field of Object.keys(first).filter((key) => typeof first[key] === 'number'))
    summary[field] = rows.reduce((sum, row) => sum + /** @type {number} */ (row[field]), 0) / rows.length;
  return result;
}

/**
 * {overall, byType: {type: mean}} of rows that carry a `type`.
 * @template {{ type: string }} R
 * @param {R[]} rows
 * @param {string[]} types
 * @returns {{ overall: Omit<R, 'type'> & { n: number }, byType: Record<string, Omit<R, 'type'> & { n: number }> }}
 */
export function summariseByType(rows, types) {
  /** @type {Record<string, Omit<R, 'type'> & { n: number }>} */
  const byType = {};
  for (const type of types) {
    const of = rows.filter((row) => row.type === type);
    if (of.length > 0) byType[type] = mean(of.map(({ type: _, ...numbers }) => numbers));
  }
  return { overall: mean(rows.map(({ type: _, ...numbers }) => numbers)), byType };
}
