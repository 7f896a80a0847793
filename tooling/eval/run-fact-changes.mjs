#!/usr/bin/env node
// @ts-check
// The fact-change gate of `pnpm eval` (fact-change-suite.mjs): does memsvc answer with the newer
// fact when one has changed, and leave alone memories that only look alike? For each engine
// (PGlite and PostgreSQL) and embedder (`local`, and the loopback semantic one of
// fake-semantic-ollama.mjs through the real ollama provider) it loads the suite into a fresh
// database through the real write path, with a
// manual clock (distractors and the old fact on day 0, the replacement on day 30, questions on
// day 31), and measures:
// - newest first: the replacement ranks above the old fact in `recall` (the old one absent counts);
// - older hidden or marked: the old fact is absent from the results or carries a marker (replaced,
//   superseded, contradicted);
// - false supersessions: look-alike pairs (and distractors) where a memory that was NOT replaced
//   was marked or hidden, at write time or in `recall`;
// - prompt_context newest first: the replacement comes before the old fact in the packed block;
// - related: the old fact is among the `related` the replacement's write returned (the agent's
//   cue to pass `supersedes`), and how many entries `related` held on average;
// - look-alikes second first: of the look-alike pairs whose first memory (the one the question
//   asks about) recall found, the share where the second one was read before it. No marker is
//   counted there: it says whether the reading order puts a newer look-alike first.
// - look-alikes first found: the share of look-alike pairs where recall found the first memory.
// Exits 1 below a floor. Flags: --engine pglite|postgres|both (default both; PostgreSQL is
// PGVECTOR_TEST_URL's server, or tooling/scripts/pg-local.sh's), --embedder local|ollama-fake|both
// (default both), --misses.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createMemoryEngine, toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { createEmbedder, LocalEmbedder } from '@memsvc/embeddings';
import { openStore } from '@memsvc/store-pg';
import { ENGINES, freshDatabase } from './eval-engines.mjs';
import { buildFactChangeSuite } from './fact-change-suite.mjs';
import { startFakeSemanticOllama } from './fake-semantic-ollama.mjs';

/**
 * What the suite must reach, per embedder: what the word-based detection achieves today, a little
 * under (see docs/benchmarks.md; the targets are 0.95 / 0.90 / 0.95 for newest first, older hidden
 * or marked and prompt order, and 0.95 for the old fact among the write's `related`), and the
 * ceiling of 0.02 for false supersessions. Newest first stays under 0.95 where the question shares
 * no word with either memory ("what diet do I follow?" / "I'm vegetarian"): the `local` embedder
 * cannot find them. The suite grew by 20 changes said in other words (2026-12-07): the floors
 * moved down with what it measures, not with what the rules do. Newest first rose to 0.856 / 0.848
 * with R-FACT-NEWER-FIRST (2026-12-08), whose reading order must not put a newer look-alike before
 * the one asked about: the share of those stays under the ceiling of 0.05 (0.025 / 0.038 before
 * and after the rule).
 */
/** @typedef {{ newestFirst: number, olderHiddenOrMarked: number, falseSupersessions: number, promptNewestFirst: number, related: number, lookAlikeSecondFirst: number }} Floors */
/**
 * The same floors for both embedders: the loopback semantic one measures within 0.01 of `local`.
 * @type {Floors}
 */
const EMBEDDER_FLOORS = {
  newestFirst: 0.84,
  olderHiddenOrMarked: 0.86,
  falseSupersessions: 0.02,
  promptNewestFirst: 0.84,
  related: 0.95,
  lookAlikeSecondFirst: 0.05,
};
/** @type {Record<string, Floors>} */
const FLOORS = { local: EMBEDDER_FLOORS, 'ollama-fake': EMBEDDER_FLOORS };
const DAY = 86_400_000;
const START = Date.parse('2026-03-02T09:00:00Z');

const { values: flags } = parseArgs({
  options: {
    engine: { type: 'string', default: 'both' },
    embedder: { type: 'string', default: 'both' },
    misses: { type: 'boolean', default: false },
  },
});
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const engines = flags.engine === 'both' ? ENGINES : [flags.engine];
if (!engines.every((engine) => ENGINES.includes(engine))) {
  console.error(`fact-changes: --engine must be pglite, postgres or both (got ${flags.engine})`);
  process.exit(2);
}
const embedders = flags.embedder === 'both' ? ['local', 'ollama-fake'] : [flags.embedder];
if (!embedders.every((name) => name in FLOORS)) {
  console.error(`fact-changes: --embedder must be local, ollama-fake or both (got ${flags.embedder})`);
  process.exit(2);
}

/**
 * A memory is marked outdated when it carries any marker a reader sees, or recall labels it replaced.
 * @type {(memory: import('@memsvc/core').MemoryRecord, ranked?: { replacedBy?: string | undefined }) => boolean}
 */
const isMarked = (memory, ranked) => Boolean(memory.supersededBy || memory.replacedBy || memory.contradicted || ranked?.replacedBy);

/**
 * @param {string} engineName
 * @param {string} name
 */
async function measure(engineName, name) {
  const fake = name === 'ollama-fake' ? await startFakeSemanticOllama() : undefined;
  const embedder = fake
    ? createEmbedder({ provider: 'ollama', ollamaUrl: fake.url, model: fake.model, dimensions: fake.dimensions }).embedder
    : new LocalEmbedder();
  const dimensions = fake ? fake.dimensions : /** @type {LocalEmbedder} */ (embedder).dimensions;
  const database = await freshDatabase(root, engineName);
  const store = await openStore({ database: database.url, vector: { dimensions } });
  const clock = new ManualClock(START);
  const engine = createMemoryEngine({ store: store.memories, embedder, clock, grants: store.grants, erasures: store.erasures });
  /** @type {Record<string, unknown>[]} */
  const misses = [];
  const counts = {
    changes: 0,
    newestFirst: 0,
    olderHiddenOrMarked: 0,
    promptNewestFirst: 0,
    replacementInTop5: 0,
    related: 0,
    relatedSize: 0,
  };
  const falses = { pairs: 0, pairsMarked: 0, distractors: 0, distractorsMarked: 0, firstFound: 0, secondFirst: 0 };
  try {
    const { changes, lookAlikes } = buildFactChangeSuite();
    for (const scenario of changes) {
      const context = { tenant: toTenantId(scenario.tenant), actor: { id: 'eval' } };
      clock.set(START);
      /** @type {string[]} */
      const distractorIds = [];
      for (const content of scenario.distractors) {
        clock.advance(60_000);
        distractorIds.push((await engine.create(context, { tier: 'ltm', content })).memory.id);
      }
      clock.advance(60_000);
      const old = (await engine.create(context, { tier: 'ltm', content: scenario.old })).memory;
      clock.set(START + 30 * DAY);
      const written = await engine.create(context, { tier: 'ltm', content: scenario.replacement });
      const replacement = written.memory;
      const oldRelated = written.related.some((entry) => entry.id === old.id);
      if (oldRelated) counts.related++;
      counts.relatedSize += written.related.length;
      clock.set(START + 31 * DAY);
      const { results } = await engine.recall(context, { query: scenario.question, limit: 10 });
      const ids = results.map((result) => result.memory.id);
      const newAt = ids.indexOf(replacement.id);
      const oldAt = ids.indexOf(old.id);
      counts.changes++;
      const newestFirst = newAt >= 0 && (oldAt < 0 || newAt < oldAt);
      if (newestFirst) counts.newestFirst++;
      if (newAt >= 0 && newAt < 5) counts.replacementInTop5++;
      const oldResult = /** @type {(typeof results)[number]} */ (results[oldAt]);
      const hiddenOrMarked = oldAt < 0 || isMarked(oldResult.memory, oldResult);
      if (hiddenOrMarked) counts.olderHiddenOrMarked++;
      const block = await engine.promptContext(context, { query: scenario.question });
      const newInBlock = block.memoryIds.indexOf(replacement.id);
      const oldInBlock = block.memoryIds.indexOf(old.id);
      if (newInBlock >= 0 && (oldInBlock < 0 || newInBlock < oldInBlock)) counts.promptNewestFirst++;
      if (!newestFirst || !hiddenOrMarked || !oldRelated)
        misses.push({ kind: 'change', question: scenario.question, newAt, oldAt, hiddenOrMarked, oldRelated });
      for (const id of distractorIds) {
        falses.distractors++;
        const distractor = await engine.getUncounted(context, id);
        if (isMarked(distractor)) {
          falses.distractorsMarked++;
          misses.push({ kind: 'distractor marked', scenario: scenario.replacement, distractor: distractor.content });
        }
      }
    }
    for (const pair of lookAlikes) {
      const context = { tenant: toTenantId(pair.tenant), actor: { id: 'eval' } };
      clock.set(START);
      for (const content of pair.distractors) {
        clock.advance(60_000);
        await engine.create(context, { tier: 'ltm', content });
      }
      clock.advance(60_000);
      const first = (await engine.create(context, { tier: 'ltm', content: pair.first })).memory;
      clock.set(START + 30 * DAY);
      const second = await engine.create(context, { tier: 'ltm', content: pair.second });
      clock.set(START + 31 * DAY);
      const { results } = await engine.recall(context, { query: pair.question, limit: 10 });
      const stored = await engine.getUncounted(context, first.id);
      const ranked = results.find((result) => result.memory.id === first.id);
      falses.pairs++;
      const firstAt = results.findIndex((result) => result.memory.id === first.id);
      const secondAt = results.findIndex((result) => result.memory.id === second.memory.id);
      if (firstAt >= 0) {
        falses.firstFound++;
        if (secondAt >= 0 && secondAt < firstAt) {
          falses.secondFirst++;
          misses.push({ kind: 'look-alike second first', first: pair.first, second: pair.second, question: pair.question });
        }
      }
      if (second.outcome === 'duplicate' || isMarked(stored) || (ranked && isMarked(ranked.memory, ranked))) {
        falses.pairsMarked++;
        misses.push({ kind: 'false supersession', first: pair.first, second: pair.second });
      }
    }
  } finally {
    await store.close();
    await database.drop();
    await fake?.stop();
  }
  const rate = (/** @type {number} */ hits, /** @type {number} */ n) => (n === 0 ? 0 : hits / n);
  return {
    name: `${engineName} ${name}`,
    n: counts.changes,
    pairs: falses.pairs,
    newestFirst: rate(counts.newestFirst, counts.changes),
    olderHiddenOrMarked: rate(counts.olderHiddenOrMarked, counts.changes),
    falseSupersessions: rate(falses.pairsMarked, falses.pairs),
    distractorsMarked: rate(falses.distractorsMarked, falses.distractors),
    promptNewestFirst: rate(counts.promptNewestFirst, counts.changes),
    replacementInTop5: rate(counts.replacementInTop5, counts.changes),
    related: rate(counts.related, counts.changes),
    relatedSize: rate(counts.relatedSize, counts.changes),
    lookAlikeFirstFound: rate(falses.firstFound, falses.pairs),
    lookAlikeSecondFirst: rate(falses.secondFirst, falses.firstFound),
    misses,
  };
}

const f = (/** @type {number} */ value) => value.toFixed(3);
/** @type {string[]} */
const failures = [];
console.log(
  '\nfact changes          changes pairs  newest-first  older hidden/marked  false supersessions  distractors marked  prompt newest-first  new in top 5  related  related size  look-alike first found  second first',
);
for (const [engineName, name] of /** @type {[string, string][]} */ (
  engines.flatMap((engine) => embedders.map((embedder) => [engine, embedder]))
)) {
  const result = await measure(engineName, name);
  console.log(
    `${result.name.padEnd(22)}${String(result.n).padEnd(8)}${String(result.pairs).padEnd(7)}${f(result.newestFirst).padEnd(14)}${f(result.olderHiddenOrMarked).padEnd(21)}${f(result.falseSupersessions).padEnd(21)}${f(result.distractorsMarked).padEnd(20)}${f(result.promptNewestFirst).padEnd(21)}${f(result.replacementInTop5).padEnd(14)}${f(result.related).padEnd(9)}${result.relatedSize.toFixed(2).padEnd(14)}${f(result.lookAlikeFirstFound).padEnd(24)}${f(result.lookAlikeSecondFirst)}`,
  );
  if (flags.misses) for (const miss of result.misses) console.log(`  ${result.name} ${JSON.stringify(miss)}`);
  const floors = /** @type {Floors} */ (FLOORS[name]);
  for (const metric of /** @type {const} */ (['newestFirst', 'olderHiddenOrMarked', 'promptNewestFirst', 'related']))
    if (result[metric] < floors[metric])
      failures.push(`${result.name} ${metric} ${f(result[metric])} is below the floor ${floors[metric]}`);
  for (const metric of /** @type {const} */ (['falseSupersessions', 'lookAlikeSecondFirst']))
    if (result[metric] > floors[metric])
      failures.push(`${result.name} ${metric} ${f(result[metric])} is above the ceiling ${floors[metric]}`);
}
if (failures.length > 0) {
  console.error(`\nfact-change eval FAILED:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log('\nfact-change eval passed');
