// @ts-check
// Scoring of `pnpm eval:conversations`: per question, from a ranking whose entries each stand
// for one or more dialogue turns (a memory that several identical turns collapsed into answers
// for all of them), against the question's evidence turns. Binary relevance throughout.

const LIMIT = 5;

/**
 * @typedef {{ recall: number, anyHit: number, mrr: number, ndcg: number }} Scores
 * @typedef {Scores & { n: number }} Summary
 */

/**
 * `ranked`: up to `LIMIT` entries, best first, each an array of dia_ids (empty for a result
 * that maps to no turn). `evidence`: the dia_ids that answer the question (at least one).
 * evidence-recall@5: the fraction of the evidence turns found in the top 5; any-hit@5: at least
 * one found; MRR: 1/rank of the first entry holding an evidence turn, 0 when none in the top 5;
 * nDCG@5: DCG of the entries holding evidence over the ideal DCG of min(|evidence|, 5) hits.
 * @param {string[][]} ranked
 * @param {string[]} evidence
 * @returns {Scores}
 */
export function scoreRanking(ranked, evidence) {
  const top = ranked.slice(0, LIMIT);
  const wanted = new Set(evidence);
  /** @type {Set<string>} */
  const found = new Set();
  let firstRank = 0;
  let dcg = 0;
  top.forEach((diaIds, i) => {
    const relevant = diaIds.filter((diaId) => wanted.has(diaId));
    if (relevant.length === 0) return;
    for (const diaId of relevant) found.add(diaId);
    if (firstRank === 0) firstRank = i + 1;
    dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(wanted.size, LIMIT); i++) ideal += 1 / Math.log2(i + 2);
  return {
    recall: found.size / wanted.size,
    anyHit: found.size > 0 ? 1 : 0,
    mrr: firstRank === 0 ? 0 : 1 / firstRank,
    ndcg: dcg / ideal,
  };
}

/** @type {(keyof Scores)[]} */
const METRICS = ['recall', 'anyHit', 'mrr', 'ndcg'];

/**
 * Means of every metric over `rows` ({recall, anyHit, mrr, ndcg, ...}), with the count.
 * @param {Scores[]} rows
 * @returns {Summary}
 */
export function summarise(rows) {
  const summary = /** @type {Summary} */ ({ n: rows.length });
  for (const metric of METRICS) summary[metric] = rows.length === 0 ? 0 : rows.reduce((sum, row) => sum + row[metric], 0) / rows.length;
  return summary;
}

/**
 * {overall, byCategory: {1: summary, ...}} for rows that carry a `category`.
 * @param {(Scores & { category: string | number })[]} rows
 */
export function summariseByCategory(rows) {
  /** @type {Record<string, Summary>} */
  const byCategory = {};
  for (const category of [...new Set(rows.map((row) => row.category))].sort())
    byCategory[category] = summarise(rows.filter((row) => row.category === category));
  return { overall: summarise(rows), byCategory };
}
