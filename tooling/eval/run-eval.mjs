#!/usr/bin/env node
// @ts-check
// `pnpm eval`: the retrieval quality gate. Loads the fixture (fixture.mjs) into a fresh embedded
// database through the real write path, asks every labelled question through the real recall
// (vector + full text in one statement, ranked by core's fusion), with the `local` embedder,
// three ways: fusion, vector list only, full-text list only. Prints recall@5, MRR and nDCG@5,
// overall and per category, and exits 1 when fusion misses a floor or ranks worse than either
// list alone on any metric.
import { createMemoryEngine, FUSION_WEIGHTS, systemClock, toTenantId } from '@memsvc/core';
import { LocalEmbedder } from '@memsvc/embeddings';
import { openStore } from '@memsvc/store-pg';
import { buildFixture } from './fixture.mjs';

const FLOORS = { recallAt5: 0.95, mrr: 0.95, ndcgAt5: 0.93 };
const MODES = {
  fusion: FUSION_WEIGHTS.local,
  'vector only': { ...FUSION_WEIGHTS.local, lexical: 0 },
  'full text only': FUSION_WEIGHTS.disabled,
  // Not gated: what fusion gives without memsvc's weighting (equal weights, every neighbour
  // counted fully), to show why the weighting exists.
  'naive equal RRF': { vector: 1, lexical: 1, minVectorSimilarity: 0, confidentVectorSimilarity: 0 },
};

const { memories, queries } = buildFixture();
const embedder = new LocalEmbedder();
const store = await openStore({ database: 'pglite://memory', vector: { dimensions: embedder.dimensions } });
const idOf = new Map();
const keyOf = new Map();
let collapsed = 0;
const writer = createMemoryEngine({ store: store.memories, embedder, clock: systemClock, grants: store.grants, erasures: store.erasures });
for (const memory of memories) {
  const context = { tenant: toTenantId(memory.tenant), actor: { id: 'eval' } };
  const created = await writer.create(context, { tier: 'ltm', content: memory.content, tags: memory.tags });
  if (created.outcome !== 'created') collapsed++;
  idOf.set(memory.key, created.memory.id);
  keyOf.set(created.memory.id, memory.key);
}

/**
 * @typedef {{ recallAt5: number, mrr: number, ndcgAt5: number }} Scores
 * @typedef {Scores & { n: number }} Summary
 */

/**
 * @param {(string | undefined)[]} rankedKeys
 * @param {string[]} relevant
 * @returns {Scores}
 */
function scoreQuery(rankedKeys, relevant) {
  const top5 = rankedKeys.slice(0, 5);
  const hits = relevant.filter((key) => top5.includes(key)).length;
  const firstRank = rankedKeys.findIndex((key) => relevant.includes(/** @type {string} */ (key)));
  const dcg = top5.reduce((sum, key, i) => sum + (relevant.includes(/** @type {string} */ (key)) ? 1 / Math.log2(i + 2) : 0), 0);
  const ideal = relevant.slice(0, 5).reduce((sum, _, i) => sum + 1 / Math.log2(i + 2), 0);
  return { recallAt5: hits / relevant.length, mrr: firstRank < 0 ? 0 : 1 / (firstRank + 1), ndcgAt5: dcg / ideal };
}
/** @type {(rows: Scores[], metric: keyof Scores) => number} */
const mean = (rows, metric) => rows.reduce((sum, row) => sum + row[metric], 0) / rows.length;
/** @type {(rows: Scores[]) => Summary} */
const summary = (rows) => ({ recallAt5: mean(rows, 'recallAt5'), mrr: mean(rows, 'mrr'), ndcgAt5: mean(rows, 'ndcgAt5'), n: rows.length });

/** @type {Record<string, { overall: Summary, byCategory: Record<string, Summary> }>} */
const results = {};
/** @type {{ query: string, relevant: string[], got: (string | undefined)[] }[]} */
const misses = [];
for (const [mode, fusion] of Object.entries(MODES)) {
  const engine = createMemoryEngine({
    store: store.memories,
    embedder,
    clock: systemClock,
    fusion,
    grants: store.grants,
    erasures: store.erasures,
  });
  /** @type {(Scores & { category: string })[]} */
  const rows = [];
  for (const query of queries) {
    const context = { tenant: toTenantId(query.tenant), actor: { id: 'eval' } };
    const { results: ranked } = await engine.recall(context, { query: query.query, limit: 10 });
    const keys = ranked.map((result) => keyOf.get(result.memory.id));
    const row = { ...scoreQuery(keys, query.relevant), category: query.category };
    rows.push(row);
    if (mode === 'fusion' && row.mrr < 1) misses.push({ query: query.query, relevant: query.relevant, got: keys.slice(0, 3) });
  }
  /** @type {Record<string, Summary>} */
  const byCategory = {};
  for (const category of new Set(rows.map((row) => row.category)))
    byCategory[category] = summary(rows.filter((row) => row.category === category));
  results[mode] = { overall: summary(rows), byCategory };
}
await store.close();

const f = (/** @type {number} */ value) => value.toFixed(3);
console.log(
  `memories: ${memories.length} in ${new Set(memories.map((m) => m.tenant)).size} tenants (${collapsed} collapsed as duplicates); queries: ${queries.length}; embedder: local`,
);
console.log('\nmode            recall@5  MRR    nDCG@5');
for (const [mode, { overall }] of Object.entries(results))
  console.log(`${mode.padEnd(16)}${f(overall.recallAt5).padEnd(10)}${f(overall.mrr).padEnd(7)}${f(overall.ndcgAt5)}`);
console.log('\nfusion by category   n    recall@5  MRR    nDCG@5   (vector only / full text only MRR)');
const resultOf = (/** @type {string} */ mode) => /** @type {{ overall: Summary, byCategory: Record<string, Summary> }} */ (results[mode]);
for (const [category, row] of Object.entries(resultOf('fusion').byCategory)) {
  const others = `${f(/** @type {Summary} */ (resultOf('vector only').byCategory[category]).mrr)} / ${f(/** @type {Summary} */ (resultOf('full text only').byCategory[category]).mrr)}`;
  console.log(
    `${category.padEnd(21)}${String(row.n).padEnd(5)}${f(row.recallAt5).padEnd(10)}${f(row.mrr).padEnd(7)}${f(row.ndcgAt5).padEnd(9)}(${others})`,
  );
}
if (process.argv.includes('--misses')) for (const miss of misses) console.log('miss', JSON.stringify(miss));

/** @type {string[]} */
const failures = [];
const fusion = resultOf('fusion').overall;
for (const [metric, floor] of /** @type {[keyof Scores, number][]} */ (Object.entries(FLOORS)))
  if (fusion[metric] < floor) failures.push(`fusion ${metric} ${f(fusion[metric])} is below the floor ${floor}`);
for (const single of ['vector only', 'full text only'])
  for (const metric of /** @type {(keyof Scores)[]} */ (Object.keys(FLOORS)))
    if (fusion[metric] < resultOf(single).overall[metric])
      failures.push(`fusion ${metric} ${f(fusion[metric])} ranks worse than ${single} (${f(resultOf(single).overall[metric])})`);
if (failures.length > 0) {
  console.error(`\neval FAILED:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log('\neval passed: fusion meets every floor and ranks at least as well as each list alone');
