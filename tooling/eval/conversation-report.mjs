// @ts-check
// The printed tables of `pnpm eval:conversations`: one row per way of writing, memsvc next to the
// BM25 baseline on the same questions, then evidence-recall@5 per question category. Plain
// fixed-width text, so a terminal and a CI log show the same thing.
import { CATEGORY_NAMES } from './locomo-dataset.mjs';

/**
 * @typedef {import('./retrieval-metrics.mjs').Summary} Summary
 * @typedef {{ p50: number, p95: number }} Latency
 * @typedef {{ memories: number, memsvc: { overall: Summary, byCategory: Record<string, Summary> }, bm25: { overall: Summary, byCategory: Record<string, Summary> }, latency: { sequential?: Latency, concurrent?: Latency, concurrentPerSecond?: number } }} WayResult
 */

const f3 = (/** @type {number} */ value) => value.toFixed(3);
const latency = (/** @type {Latency | undefined} */ summary) => (summary ? `${summary.p50.toFixed(1)}/${summary.p95.toFixed(1)}` : '-');

/**
 * Fixed-width columns: the first left-aligned, the rest right-aligned, a rule under the header.
 * @param {string[]} header
 * @param {string[][]} rows
 */
export function table(header, rows) {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => /** @type {string} */ (row[i]).length)));
  /** @type {(cells: string[]) => string} */
  const line = (cells) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(/** @type {number} */ (widths[i])) : cell.padStart(/** @type {number} */ (widths[i]))))
      .join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/**
 * The overall table of one engine: `ways` is {way: result} as run-conversations.mjs builds it.
 * @param {Record<string, WayResult>} ways
 */
export function overallTable(ways) {
  const header = [
    'way',
    'memories',
    'questions',
    'memsvc R@5',
    'any@5',
    'MRR',
    'nDCG@5',
    'BM25 R@5',
    'any@5',
    'MRR',
    'nDCG@5',
    'seq P50/P95 ms',
    '8 clients P50/P95 ms',
  ];
  const rows = Object.entries(ways).map(([way, result]) => {
    const m = result.memsvc.overall;
    const b = result.bm25.overall;
    return [
      way,
      String(result.memories),
      String(m.n),
      f3(m.recall),
      f3(m.anyHit),
      f3(m.mrr),
      f3(m.ndcg),
      f3(b.recall),
      f3(b.anyHit),
      f3(b.mrr),
      f3(b.ndcg),
      latency(result.latency.sequential),
      latency(result.latency.concurrent),
    ];
  });
  return table(header, rows);
}

/**
 * evidence-recall@5 per category, memsvc / BM25, one row per way.
 * @param {Record<string, WayResult>} ways
 */
export function categoryTable(ways) {
  const categories = Object.keys(CATEGORY_NAMES);
  const header = ['way', ...categories.map((category) => `${category} ${CATEGORY_NAMES[category]} (n) memsvc/BM25`)];
  const rows = Object.entries(ways).map(([way, result]) => [
    way,
    ...categories.map((category) => {
      const m = result.memsvc.byCategory[category];
      const b = result.bm25.byCategory[category];
      return m ? `(${m.n}) ${f3(m.recall)}/${f3(/** @type {Summary} */ (b).recall)}` : '-';
    }),
  ]);
  return table(header, rows);
}
