// @ts-check
// The printed table of the LongMemEval part of `pnpm eval:conversations`: per question type and
// overall, memsvc beside BM25 over the same turns and BM25 over whole sessions, at turn and at
// session level. Plain fixed-width text, so a terminal and a CI log show the same thing.
import { table } from './conversation-report.mjs';

/** @typedef {{ n: number, turnAny?: number, turnNdcg?: number, sessionAny?: number, sessionAll?: number }} Means */
/** @typedef {{ overall: Means, byType: Record<string, Means> }} ByType */

const f3 = (/** @type {number | undefined} */ value) => (value === undefined ? '-' : value.toFixed(3));

/**
 * `memsvc`, `turnsBm25`, `sessionsBm25`: summaries as summariseByType builds them (the sessions
 * baseline has session-level figures only). One row per type, then the overall row.
 * @param {ByType} memsvc
 * @param {ByType} turnsBm25
 * @param {ByType} sessionsBm25
 */
export function longMemEvalTable(memsvc, turnsBm25, sessionsBm25) {
  const header = [
    'question type',
    'n',
    'turn any@5 memsvc',
    'BM25 turns',
    'nDCG@10 memsvc',
    'BM25 turns',
    'session any@5 memsvc',
    'BM25 turns',
    'BM25 sessions',
    'session all@5 memsvc',
    'BM25 turns',
    'BM25 sessions',
  ];
  /** @type {(name: string, m: Means, t: Means, s: Means) => string[]} */
  const row = (name, m, t, s) => [
    name,
    String(m.n),
    f3(m.turnAny),
    f3(t.turnAny),
    f3(m.turnNdcg),
    f3(t.turnNdcg),
    f3(m.sessionAny),
    f3(t.sessionAny),
    f3(s.sessionAny),
    f3(m.sessionAll),
    f3(t.sessionAll),
    f3(s.sessionAll),
  ];
  const rows = Object.keys(memsvc.byType).map((type) =>
    row(
      type,
      /** @type {Means} */ (memsvc.byType[type]),
      /** @type {Means} */ (turnsBm25.byType[type]),
      /** @type {Means} */ (sessionsBm25.byType[type]),
    ),
  );
  rows.push(row('overall', memsvc.overall, turnsBm25.overall, sessionsBm25.overall));
  return table(header, rows);
}
