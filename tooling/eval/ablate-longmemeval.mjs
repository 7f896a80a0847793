#!/usr/bin/env node
// @ts-check
// Ablations of recall's ranking on LongMemEval histories already written by run-longmemeval.mjs
// with --database and --written (the ingest way): for each question it reads recall's candidates
// straight from the store, as recall does, and ranks them with each part of the ranking switched
// off in turn, so a part's worth is measured on the same candidates in one run. The figures are
// those of run-longmemeval.mjs (turn any@5, session any@5), beside BM25 computed here.
//
//   node tooling/eval/ablate-longmemeval.mjs --database <url> --written <file> [--dir <dataset>] [--per-type n]
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FUSION_WEIGHTS, LEXICAL_RANKING, rankCandidates, rankingQueryText, toTenantId } from '@memsvc/core';
import { LocalEmbedder } from '@memsvc/embeddings';
import { openStore } from '@memsvc/store-pg';
import pg from 'pg';
import { loadLongMemEval, QUESTION_TYPES } from './longmemeval-dataset.mjs';
import { NDCG_AT, scoreSessions, scoreTurns, sessionsOfTopTurns, summariseByType } from './longmemeval-metrics.mjs';
import { lmeTenantOf } from './longmemeval-writes.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const { values: flags } = parseArgs({
  options: {
    database: { type: 'string' },
    written: { type: 'string' },
    dir: { type: 'string', default: resolve(root, '..', 'shared', 'datasets', 'longmemeval-dev') },
    'per-type': { type: 'string' },
    // Lists, per variant, the questions it finds or loses against the first variant (ids and types only).
    diff: { type: 'boolean', default: false },
  },
});
if (!flags.database || !flags.written) {
  console.error('ablate-longmemeval: --database and --written name what run-longmemeval.mjs wrote');
  process.exit(2);
}
const dataset = loadLongMemEval(resolve(flags.dir), flags['per-type'] ? { perType: Number(flags['per-type']) } : {});
if (!dataset) throw new Error(`no data at ${flags.dir}`);
const kept = existsSync(flags.written) ? (JSON.parse(readFileSync(flags.written, 'utf8')).ingest ?? {}) : {};

/** Each variant: a name and how it changes the candidate query and the ranking options. */
const VARIANTS = await import(process.env.ABLATE_VARIANTS ?? './ablation-variants.mjs').then((module) => module.VARIANTS);

const store = await openStore({ database: flags.database, migrate: false });
const sql = new pg.Client({ connectionString: flags.database });
await sql.connect();

/**
 * Memory id → turns for a question whose writes are not in --written (a run still writing): read
 * back from what ingest stores (`conversation: {id: lme-<session>, turn}`), each memory standing for
 * its own turn only. Undefined while the history is not complete.
 * @param {import('./longmemeval-dataset.mjs').LongMemEvalQuestion} question
 */
async function turnsFromStore(question) {
  /** @type {{ rows: { id: string, conversation: string, turn: number }[] }} */
  const { rows } = await sql.query(
    "select id, metadata->'conversation'->>'id' as conversation, (metadata->'conversation'->>'turn')::int as turn from memories where user_id = $1",
    [lmeTenantOf('ingest', question.id)],
  );
  const sessions = new Map(question.sessions.map((session) => [`lme-${session.id}`.slice(0, 128), session]));
  const written = new Set(rows.map((row) => row.conversation));
  const expected = question.sessions.filter((session) => session.turns.some((turn) => turn.content.trim() !== ''));
  if (expected.some((session) => !written.has(`lme-${session.id}`.slice(0, 128)))) return undefined;
  return new Map(
    rows.map((row) => {
      const session = sessions.get(row.conversation);
      const turn = session?.turns.filter((candidate) => candidate.content.trim() !== '')[row.turn];
      /** @type {[string, import('./longmemeval-metrics.mjs').RankedTurn[]]} */
      const entry = [row.id, turn && session ? [{ key: turn.key, sessionId: session.id }] : []];
      return entry;
    }),
  );
}
const embedder = new LocalEmbedder();
const now = new Date();
/** @typedef {{ id: string, type: string, turnAny: number, turnNdcg: number, sessionAny: number, sessionAll: number }} Row */
/** @type {Record<string, Row[]>} */
const rows = {};
let readBack = 0;
let skipped = 0;
for (const question of dataset.questions) {
  const idToTurns = kept[question.id] ? new Map(kept[question.id].idToTurns) : await turnsFromStore(question);
  if (!idToTurns) {
    skipped++;
    continue;
  }
  if (!kept[question.id]) readBack++;
  const tenant = toTenantId(lmeTenantOf('ingest', question.id), 'userId');
  const text = rankingQueryText(question.question);
  const vector = embedder.vectorOf(text);
  /** @type {Map<string, readonly import('@memsvc/core').RecallCandidate[]>} */
  const candidateCache = new Map();
  for (const variant of VARIANTS) {
    // A variant's lexical parameters may depend on the question (a rule that reads the query).
    const lexical = {
      ...LEXICAL_RANKING,
      ...(typeof variant.lexical === 'function' ? variant.lexical(question.question) : variant.lexical),
    };
    const perList = variant.perList ?? 30;
    const variantText = variant.queryText ? variant.queryText(text, question.question, question) : text;
    const key = JSON.stringify([lexical, perList, variantText]);
    let candidates = candidateCache.get(key);
    if (!candidates) {
      candidates = await store.memories.recallCandidates(tenant, {
        text: variantText,
        vector: variantText === text ? vector : embedder.vectorOf(variantText),
        perList,
        minSimilarity: FUSION_WEIGHTS.local.minVectorSimilarity,
        lexical,
        filters: {},
        now,
      });
      candidateCache.set(key, candidates);
    }
    const weights = { ...FUSION_WEIGHTS.local, ...variant.fusion };
    const ranked = (variant.rank ?? rankCandidates)(candidates, weights, {
      now,
      limit: NDCG_AT,
      query: question.question,
      ...(typeof variant.ranking === 'function' ? variant.ranking(question.question) : variant.ranking),
    });
    const turns = ranked.map((/** @type {import('@memsvc/core').RankedMemory} */ result) => idToTurns.get(result.memory.id) ?? []);
    const variantRows = rows[variant.name] ?? [];
    rows[variant.name] = variantRows;
    variantRows.push({
      id: question.id,
      type: question.type,
      ...scoreTurns(turns, question.evidence),
      ...scoreSessions(sessionsOfTopTurns(turns), question.answerSessionIds),
    });
  }
}
await store.close();
await sql.end();
const f3 = (/** @type {number | undefined} */ value) => (value === undefined ? '  -  ' : value.toFixed(3));
console.log(
  `${dataset.questions.length - skipped} questions (${flags.dir}; ${readBack} mapped back from the store, ${skipped} not yet written); turn any@5 / session any@5`,
);
console.log(['variant'.padEnd(34), 'overall     ', ...QUESTION_TYPES.map((type) => type.slice(0, 16).padEnd(16))].join(' '));
for (const [name, variantRows] of Object.entries(rows)) {
  const summary = summariseByType(variantRows, QUESTION_TYPES);
  const cell = (/** @type {{ turnAny?: number, sessionAny?: number } | undefined} */ means) =>
    `${f3(means?.turnAny)}/${f3(means?.sessionAny)}`;
  console.log([name.padEnd(34), cell(summary.overall), ...QUESTION_TYPES.map((type) => cell(summary.byType[type]).padEnd(16))].join(' '));
}
if (flags.diff) {
  const [first, ...others] = Object.entries(rows);
  if (first) {
    const missed = first[1].filter((row) => row.turnAny === 0 || row.sessionAny === 0);
    console.log(`\n${first[0]} misses (turn any@5 / session any@5):`);
    for (const row of missed) console.log(`  ${row.id} ${row.type} ${row.turnAny}/${row.sessionAny}`);
  }
  if (first)
    for (const [name, variantRows] of others) {
      const changed = variantRows.flatMap((row, i) => {
        const before = first[1][i];
        if (!before) return [];
        const turn = row.turnAny - before.turnAny;
        const session = row.sessionAny - before.sessionAny;
        return turn === 0 && session === 0
          ? []
          : [`${row.id} ${row.type} turn ${turn > 0 ? '+' : ''}${turn} session ${session > 0 ? '+' : ''}${session}`];
      });
      if (changed.length > 0) console.log(`\n${name} against ${first[0]}:\n  ${changed.join('\n  ')}`);
    }
}
