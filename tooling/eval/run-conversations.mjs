#!/usr/bin/env node
// @ts-check
// `pnpm eval:conversations`: conversational retrieval, measured on real multi-session
// conversations (the LoCoMo development split, read at run time from ../shared/datasets/locomo-dev
// or LOCOMO_DIR, never copied into the repo). For each engine (PGlite, PostgreSQL) it starts the
// real server on a fresh database, writes every conversation into its own tenant three ways
// (conversation-writes.mjs), asks every question of categories 1-4 as an MCP `recall` with limit 5,
// and scores the top 5 against the evidence turns — next to a BM25 baseline computed here over the
// same units and questions. Exits 1 when memsvc's overall evidence-recall@5 is below BM25's for
// any (engine, way); a shortfall in one category is only a warning. The second benchmark of
// `pnpm eval:conversations`, LongMemEval, is run-longmemeval.mjs.
//
// Flags: --engine pglite|postgres|both, --way turns,turns+context,ingest, --json <file>,
// --misses <file> (memsvc's imperfect answers as JSON lines; they quote the dataset's questions,
// so write them outside the repository), --no-concurrency (skip the 8-client phase),
// --embedder local|ollama-fake (FAKE_SEMANTIC_NOISE, default 0.5).
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { mcpClient } from '../bench/bench-support.mjs';
import { bm25Index } from './bm25-baseline.mjs';
import { askConcurrently, askSequentially, LIMIT } from './conversation-questions.mjs';
import { categoryTable, overallTable } from './conversation-report.mjs';
import { WAYS, writeConversation } from './conversation-writes.mjs';
import { ENGINES, startEngine } from './eval-engines.mjs';
import { startFakeSemanticOllama } from './fake-semantic-ollama.mjs';
import { CATEGORY_NAMES, loadLocomo } from './locomo-dataset.mjs';
import { scoreRanking, summariseByCategory } from './retrieval-metrics.mjs';

const CONCURRENT_CLIENTS = 8;
const root = resolve(import.meta.dirname, '..', '..');

const { values: flags } = parseArgs({
  options: {
    engine: { type: 'string', default: 'both' },
    way: { type: 'string', default: WAYS.join(',') },
    json: { type: 'string' },
    misses: { type: 'string' },
    'no-concurrency': { type: 'boolean', default: false },
    embedder: { type: 'string', default: 'local' },
  },
});
/** @type {(message: string) => never} */
const usage = (message) => {
  console.error(`eval:conversations: ${message}`);
  process.exit(2);
};
const engines = flags.engine === 'both' ? ENGINES : [flags.engine];
if (!engines.every((engine) => ENGINES.includes(engine))) usage(`--engine must be pglite, postgres or both (got ${flags.engine})`);
const ways = flags.way.split(',').map((way) => way.trim());
if (!ways.every((way) => WAYS.includes(way))) usage(`--way takes a comma-separated list of ${WAYS.join(', ')} (got ${flags.way})`);
if (!['local', 'ollama-fake'].includes(flags.embedder)) usage(`--embedder must be local or ollama-fake (got ${flags.embedder})`);

const dir = process.env.LOCOMO_DIR ?? resolve(root, '..', 'shared', 'datasets', 'locomo-dev');
const dataset = loadLocomo(dir);
if (!dataset) {
  console.log(
    `eval:conversations skipped: no LoCoMo data at ${dir} (evaluation-only, never kept in the repo; set LOCOMO_DIR to its directory)`,
  );
  process.exit(0);
}
if (dataset.missing) usage(`${dir} lacks ${dataset.missing.join(', ')}`);
if (!existsSync(resolve(root, 'apps', 'server', 'dist', 'memsvc-server.js'))) usage('apps/server/dist is missing: run pnpm build first');

const seconds = (/** @type {number} */ since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const runStarted = performance.now();
const { conversations } = dataset;
const questions = conversations.flatMap((conversation) => conversation.questions);
const unresolved = conversations.flatMap((conversation) =>
  conversation.unresolved.map((diaId) => `${conversation.id}:${JSON.stringify(diaId)}`),
);
const dropped = conversations.reduce((sum, conversation) => sum + conversation.dropped, 0);
const turnCount = conversations.reduce((sum, conversation) => sum + conversation.turns.length, 0);
const perCategory = Object.keys(CATEGORY_NAMES).map(
  (category) => `${category} ${CATEGORY_NAMES[category]} ${questions.filter((q) => q.category === Number(category)).length}`,
);
console.log(
  `LoCoMo dev split (${dir}): ${conversations.length} conversations, ` +
    `${conversations.reduce((sum, conversation) => sum + conversation.sessions.length, 0)} sessions, ${turnCount} turns; ` +
    `${questions.length} questions of categories 1-4 (${perCategory.join(', ')})`,
);
console.log(
  `evidence ids that name no turn: ${unresolved.length} (${unresolved.join(', ') || 'none'}); ` +
    `questions dropped for having no evidence turn left: ${dropped}`,
);

// The baseline's unit per way. `turns` is what memsvc stores for the plain client: the content
// alone, plain Okapi BM25. For the ways that give memsvc context (metadata, or ingest's indexing
// with the previous turn and the date), the baseline gets the same context: the previous turn of
// the same session (ingest sees one session per call, so neither side looks across sessions),
// the session date written out, and a Porter stemmer — the README's strongest reference.
/** @param {string} way */
function baselineRankings(way) {
  const started = performance.now();
  /** @type {Map<string, string[][][]>} */
  const rankingsByConv = new Map();
  for (const conversation of conversations) {
    const withContext = way !== 'turns';
    const units = conversation.turns.map((turn) => {
      if (!withContext) return turn.content;
      const previous = conversation.turns[turn.index - 1];
      const before = previous && previous.session === turn.session ? previous.content : '';
      return `${turn.content}\n${before}\n${turn.date.human}`;
    });
    const index = bm25Index(units, { stem: withContext });
    rankingsByConv.set(
      conversation.id,
      conversation.questions.map((question) =>
        index
          .search(question.question, LIMIT)
          .map((i) => [/** @type {import('./locomo-dataset.mjs').Turn} */ (conversation.turns[i]).diaId]),
      ),
    );
  }
  /** @type {(string[][] | undefined)[]} */
  const rankings = questions.map(() => undefined);
  /** @type {Map<string, number>} */
  const next = new Map();
  questions.forEach((question, i) => {
    const position = next.get(question.conv) ?? 0;
    rankings[i] = /** @type {string[][][]} */ (rankingsByConv.get(question.conv))[position];
    next.set(question.conv, position + 1);
  });
  return { rankings, ms: performance.now() - started };
}

const score = (/** @type {(string[][] | undefined)[]} */ rankings) =>
  questions.map((question, i) => ({
    ...scoreRanking(/** @type {string[][]} */ (rankings[i]), question.evidence),
    category: question.category,
  }));

/** @typedef {ReturnType<typeof summariseByCategory>} ByCategory */
/** @type {Record<string, { rankings: (string[][] | undefined)[], summary: ByCategory }>} */
const baseline = {};
for (const way of ways) {
  const { rankings, ms } = baselineRankings(way);
  baseline[way] = { rankings, summary: summariseByCategory(score(rankings)) };
  console.log(`BM25 ${way}: ${questions.length} questions ranked in ${(ms / 1000).toFixed(1)} s`);
}

let fake;
/** @type {Record<string, string>} */
let embedderEnv = { EMBEDDING_PROVIDER: 'local' };
if (flags.embedder === 'ollama-fake') {
  const noise = Number(process.env.FAKE_SEMANTIC_NOISE ?? 0.5);
  if (!Number.isFinite(noise) || noise < 0) usage(`FAKE_SEMANTIC_NOISE must be a number ≥ 0 (got ${process.env.FAKE_SEMANTIC_NOISE})`);
  fake = await startFakeSemanticOllama({ noise });
  embedderEnv = {
    EMBEDDING_PROVIDER: 'ollama',
    OLLAMA_URL: fake.url,
    EMBEDDING_MODEL: fake.model,
    VECTOR_DIMENSIONS: String(fake.dimensions),
  };
  console.log(`embedder: ollama-fake (${fake.dimensions} dimensions, noise ${noise}) at ${fake.url}`);
} else console.log('embedder: local');

/** @type {Record<string, { ways: Record<string, import('./conversation-report.mjs').WayResult & Record<string, unknown>>, seconds: number }>} */
const results = {};
/** @type {Record<string, unknown>[]} */
const misses = [];
/** @type {string[]} */
const failures = [];
/** @type {string[]} */
const warnings = [];

/** @param {string} engine */
async function runEngine(engine) {
  const started = performance.now();
  const server = await startEngine(root, engine, embedderEnv);
  console.log(
    `\n[${engine}] server up in ${(server.coldStartMs / 1000).toFixed(1)} s on a fresh database (${seconds(started)} with setup)`,
  );
  /** @type {import('../bench/bench-support.mjs').McpClient[]} */
  const writers = [];
  /** @type {import('../bench/bench-support.mjs').McpClient[]} */
  const askers = [];
  /** @type {Record<string, import('./conversation-report.mjs').WayResult & Record<string, unknown>>} */
  const wayResults = {};
  try {
    for (const _ of conversations) writers.push(await mcpClient(server.base));
    if (!flags['no-concurrency']) for (let i = 0; i < CONCURRENT_CLIENTS; i++) askers.push(await mcpClient(server.base));
    for (const way of ways) {
      // Writes: one client per conversation, all conversations at once, each in turn order.
      let phase = performance.now();
      const written = await Promise.all(
        conversations.map((conversation, i) =>
          writeConversation(/** @type {import('../bench/bench-support.mjs').McpClient} */ (writers[i]), way, conversation),
        ),
      );
      const idMaps = new Map(
        conversations.map((conversation, i) => [conversation.id, /** @type {(typeof written)[number]} */ (written[i]).idToDiaIds]),
      );
      /** @type {Record<string, number>} */
      const outcomes = {};
      for (const { outcomes: counts } of written)
        for (const [outcome, count] of Object.entries(counts)) outcomes[outcome] = (outcomes[outcome] ?? 0) + count;
      const memories = written.reduce((sum, { idToDiaIds }) => sum + idToDiaIds.size, 0);
      const contradictions = written.reduce((sum, { contradictions: count }) => sum + count, 0);
      const calls = written.reduce((sum, { calls: count }) => sum + count, 0);
      const writeSeconds = (performance.now() - phase) / 1000;
      console.log(
        `[${engine}] ${way}: wrote ${turnCount} turns in ${calls} calls in ${writeSeconds.toFixed(1)} s ` +
          `(${conversations.length} clients) → ${memories} memories; outcomes ${JSON.stringify(outcomes)}; ` +
          `contradictions reported ${contradictions}`,
      );

      phase = performance.now();
      const sequential = await askSequentially(
        /** @type {import('../bench/bench-support.mjs').McpClient} */ (writers[0]),
        way,
        questions,
        (conv) => /** @type {Map<string, string[]>} */ (idMaps.get(conv)),
      );
      const rows = score(sequential.rankings);
      const sequentialSeconds = (performance.now() - phase) / 1000;
      console.log(
        `[${engine}] ${way}: ${questions.length} recalls one at a time in ${sequentialSeconds.toFixed(1)} s ` +
          `(${sequential.withVector} used a query vector${sequential.unmapped > 0 ? `; ${sequential.unmapped} results named no written turn` : ''})`,
      );

      let concurrent;
      if (askers.length > 0) {
        phase = performance.now();
        concurrent = await askConcurrently(askers, way, questions);
        console.log(
          `[${engine}] ${way}: ${questions.length} recalls by ${askers.length} clients at once in ${seconds(phase)} ` +
            `(${concurrent.perSecond}/s)`,
        );
      }

      rows.forEach((row, i) => {
        if (row.recall >= 1) return;
        const question = /** @type {import('./locomo-dataset.mjs').Question} */ (questions[i]);
        misses.push({
          engine,
          conv: question.conv,
          way,
          question: question.question,
          category: question.category,
          evidence: question.evidence,
          got: /** @type {string[][]} */ (sequential.rankings[i]).map((diaIds) => diaIds.join('+')),
        });
      });
      wayResults[way] = {
        memories,
        turns: turnCount,
        writes: { calls, outcomes, contradictions, seconds: writeSeconds },
        memsvc: summariseByCategory(rows),
        bm25: /** @type {{ summary: ByCategory }} */ (baseline[way]).summary,
        latency: { sequential: sequential.latency, concurrent: concurrent?.latency, concurrentPerSecond: concurrent?.perSecond },
        recallSeconds: sequentialSeconds,
        vectorAnswers: sequential.withVector,
        unmappedResults: sequential.unmapped,
      };
    }
  } finally {
    await Promise.allSettled([...writers, ...askers].map((client) => client.close()));
    await server.close();
  }
  results[engine] = { ways: wayResults, seconds: (performance.now() - started) / 1000 };
  console.log(`[${engine}] done in ${seconds(started)}`);
}

try {
  for (const engine of engines) await runEngine(engine);
} finally {
  if (fake) console.log(`ollama-fake answered ${fake.requests()} requests for ${fake.texts()} texts`);
  await fake?.stop();
}

for (const engine of engines) {
  const ways = /** @type {(typeof results)[string]} */ (results[engine]).ways;
  console.log(`\n${engine} — top ${LIMIT}, ${questions.length} questions; latency is recall as the MCP client sees it`);
  console.log(overallTable(ways));
  console.log(`\n${engine} — evidence-recall@5 by category, memsvc/BM25`);
  console.log(categoryTable(ways));
  for (const [way, result] of Object.entries(ways)) {
    const memsvc = result.memsvc.overall.recall;
    const bm25 = result.bm25.overall.recall;
    if (memsvc < bm25) failures.push(`${engine} ${way}: memsvc evidence-recall@5 ${memsvc.toFixed(3)} is below BM25's ${bm25.toFixed(3)}`);
    for (const [category, summary] of Object.entries(result.memsvc.byCategory)) {
      const other = /** @type {import('./retrieval-metrics.mjs').Summary} */ (result.bm25.byCategory[category]).recall;
      if (summary.recall < other)
        warnings.push(
          `${engine} ${way}: category ${category} (${CATEGORY_NAMES[category]}) memsvc ${summary.recall.toFixed(3)} < BM25 ${other.toFixed(3)}`,
        );
    }
  }
}

if (flags.json) {
  const report = {
    dataset: {
      dir,
      conversations: conversations.map((conversation) => conversation.id),
      turns: turnCount,
      questions: questions.length,
      dropped,
      unresolvedEvidence: unresolved,
    },
    embedder: flags.embedder,
    limit: LIMIT,
    engines: results,
    failures,
    warnings,
    seconds: (performance.now() - runStarted) / 1000,
  };
  writeFileSync(flags.json, `${JSON.stringify(report, null, 2)}\n`);
}
if (flags.misses) writeFileSync(flags.misses, misses.map((miss) => JSON.stringify(miss)).join('\n') + (misses.length > 0 ? '\n' : ''));

for (const warning of warnings) console.log(`warning: ${warning}`);
console.log(`\ntotal ${seconds(runStarted)}`);
if (failures.length > 0) {
  console.error(`\neval:conversations FAILED:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log('eval:conversations passed: memsvc finds at least as much evidence as BM25 for every engine and way');
