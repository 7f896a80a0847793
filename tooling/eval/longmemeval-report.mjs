// @ts-check
// The printed table of the LongMemEval part of `pnpm eval:conversations`: per question type and
// overall, memsvc beside BM25 over the same turns and BM25 over whole sessions, at turn and at
// session level. Plain fixed-width text, so a terminal and a CI log show the same thing.
import { table } from './conversation-report.mjs';

/** @typedef {{ n: number, turnAny?: number, turnNdcg?: number, sessionAny?: number, sessionAll?: number }} Means */
/** @typedef {{ overall: Means, byType: Record<string, Means> }} ByType */

const f3 = (/** @type {number | undefined} */ value) => (value === undefined ? '-' : value.toFixed(3));

/**
 * `memsvc` and the baselines' summaries as summariseByType builds them: BM25 over the same turns
 * (`turns`, plain; `stemmed`, Porter-stemmed with memsvc's length normalisation) and over whole
 * sessions (`sessions`, session-level figures only). One row per type, then the overall row.
 * @param {ByType} memsvc
 * @param {{ turns: ByType, stemmed: ByType, sessions: ByType }} bm25
 */
export function longMemEvalTable(memsvc, bm25) {
  const header = [
    'question type',
    'n',
    'turn any@5 memsvc',
    'BM25 turns',
    'stemmed',
    'nDCG@10 memsvc',
    'BM25 turns',
    'stemmed',
    'session any@5 memsvc',
    'BM25 turns',
    'stemmed',
    'BM25 sessions',
    'session all@5 memsvc',
    'BM25 turns',
    'BM25 sessions',
  ];
  /** @type {(name: string, m: Means, t: Means, st: Means, s: Means) => string[]} */
  const row = (name, m, t, st, s) => [
    name,
    String(m.n),
    f3(m.turnAny),
    f3(t.turnAny),
    f3(st.turnAny),
    f3(m.turnNdcg),
    f3(t.turnNdcg),
    f3(st.turnNdcg),
    f3(m.sessionAny),
    f3(t.sessionAny),
    f3(st.sessionAny),
    f3(s.sessionAny),
    f3(m.sessionAll),
    f3(t.sessionAll),
    f3(s.sessionAll),
  ];
  const of = (/** @type {ByType} */ summary, /** @type {string} */ type) => /** @type {Means} */ (summary.byType[type]);
  const rows = Object.keys(memsvc.byType).map((type) =>
    row(type, of(memsvc, type), of(bm25.turns, type), of(bm25.stemmed, type), of(bm25.sessions, type)),
  );
  rows.push(row('overall', memsvc.overall, bm25.turns.overall, bm25.stemmed.overall, bm25.sessions.overall));
  return table(header, rows);
}
