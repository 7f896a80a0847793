#!/usr/bin/env node
// @ts-check
// memsvc recall scale benchmark (`pnpm bench` runs it after the server benchmark). For each
// engine: seeds TOTAL memories, TENANT of them in one tenant, with batched inserts and the HNSW
// index built after the load; starts the real server and measures warm `recall` latency
// (P50/P95/P99) for that tenant through MCP over streamable HTTP, twice: keyword queries, and the
// same queries with a word that 20% of the tenant's memories contain (COMMON_WORD: the cost of a
// query must not grow with how common its words are); prints the EXPLAIN ANALYZE of the recall
// statement (it must use the HNSW shard and the impact-ordered postings); and measures how many
// of the exact 30 nearest neighbours the approximate (HNSW) search returns.
// Environment: RECALL_ENGINES (default "postgres,pglite"), RECALL_TOTAL / RECALL_TENANT
// (default 200000 / 50000 on PostgreSQL), RECALL_PGLITE_TOTAL / RECALL_PGLITE_TENANT (the same
// by default; PGlite builds an HNSW index about five times slower, ~5 minutes), RECALL_QUERIES (1000
// measured calls), RECALL_WARMUP (1000 calls before them, other queries: the latency of a server
// that has been serving, once V8 has optimised the hot path; the warming calls' own percentiles are
// reported too).
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentFingerprintText, FUSION_WEIGHTS, LEXICAL_RANKING, toTenantId } from '@memsvc/core';
import { LocalEmbedder } from '@memsvc/embeddings';
import { HNSW_SHARD_INDEX_NAMES, hnswShardIndexName, openStore, UuidV7Generator, vectorShardOf } from '@memsvc/store-pg';
import { sql } from 'kysely';
import { mcpClient, percentileSummary, postgresDatabase, sentence, startServer, vocabularyWord } from './bench-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ENGINES = /** @type {('postgres' | 'pglite')[]} */ ((process.env.RECALL_ENGINES ?? 'postgres,pglite').split(','));
const QUERIES = Number(process.env.RECALL_QUERIES ?? 1000);
const WARMUP = Number(process.env.RECALL_WARMUP ?? 1000);
const SIZES = {
  postgres: { total: Number(process.env.RECALL_TOTAL ?? 200_000), tenant: Number(process.env.RECALL_TENANT ?? 50_000) },
  pglite: { total: Number(process.env.RECALL_PGLITE_TOTAL ?? 200_000), tenant: Number(process.env.RECALL_PGLITE_TENANT ?? 50_000) },
};
const BIG = 'big-tenant';
/** In every fifth memory of the big tenant: a word 20% of its memories contain. */
const COMMON_WORD = 'project';
const embedder = new LocalEmbedder();
const ids = new UuidV7Generator();
const ms = (/** @type {number} */ value) => Math.round(value * 100) / 100;

/** @typedef {Awaited<ReturnType<typeof openStore>>} Store */

/**
 * @param {Store} store
 * @param {{ total: number, tenant: number }} size
 */
async function seed(store, { total, tenant }) {
  const db = store.connection.db;
  // The HNSW shard indexes are built after the load, as an operator's bulk import would.
  const { rows } = /** @type {{ rows: { indexname: string, indexdef: string }[] }} */ (
    await sql`SELECT indexname, indexdef FROM pg_indexes WHERE indexname = ANY(${[...HNSW_SHARD_INDEX_NAMES]})`.execute(db)
  );
  if (rows.length !== HNSW_SHARD_INDEX_NAMES.length) throw new Error('no HNSW shard indexes to rebuild');
  for (const row of rows) await sql`DROP INDEX ${sql.id(row.indexname)}`.execute(db);
  /** @type {string[]} */
  const bigContents = [];
  const every = Math.round(total / tenant);
  const started = performance.now();
  const now = Date.now();
  for (let offset = 0; offset < total; offset += 1000) {
    const batch = [];
    for (let i = offset; i < Math.min(total, offset + 1000); i++) {
      const owner = i % every === 0 ? BIG : `tenant-${i % 151}`;
      const content = owner === BIG && bigContents.length % 5 === 0 ? `${sentence()} ${COMMON_WORD}` : sentence();
      if (owner === BIG) bigContents.push(content);
      const created = new Date(now - Math.floor((i * 7919) % (365 * 86_400)) * 1000);
      batch.push({
        id: ids.next(),
        user_id: owner,
        tier: /** @type {const} */ ('ltm'),
        content,
        content_hash: createHash('sha256').update(contentFingerprintText(content)).digest('hex'),
        importance_score: 0.5,
        embedding: `[${embedder.vectorOf(content).join(',')}]`,
        embedding_model: embedder.model,
        embedded_at: created,
        created_at: created,
        updated_at: created,
      });
    }
    await db.insertInto('memories').values(batch).execute();
  }
  const loadSeconds = (performance.now() - started) / 1000;
  const indexStarted = performance.now();
  await sql`SET maintenance_work_mem = '512MB'`.execute(db).catch(() => undefined);
  for (const row of rows) await sql.raw(row.indexdef).execute(db);
  // As after any bulk load: statistics for the planner, and the visibility map set now rather
  // than by an autovacuum that would otherwise start during the measurement.
  await sql`VACUUM (ANALYZE) memories, memory_terms, lexical_terms, lexical_corpus`.execute(db);
  return { bigContents, loadSeconds: ms(loadSeconds), indexSeconds: ms((performance.now() - indexStarted) / 1000) };
}

/**
 * @param {string[]} bigContents
 * @param {number} i
 */
function queryFrom(bigContents, i, extra = '') {
  // Three words of one of the tenant's memories and one word from anywhere: a keyword query
  // with a known best answer and some noise, as an agent's recall often is.
  const words = /** @type {string} */ (bigContents[(i * 104_729) % bigContents.length])
    .split(' ')
    .filter((word) => word !== COMMON_WORD);
  const query = `${words[(i * 3) % words.length]} ${words[(i * 5 + 1) % words.length]} ${words[(i * 7 + 2) % words.length]} ${vocabularyWord(i)}`;
  return extra ? `${query} ${extra}` : query;
}

/**
 * @param {Store} store
 * @param {string[]} bigContents
 */
async function annRecall(store, bigContents) {
  // How many of the exact 30 nearest neighbours the HNSW search finds, on the tenant's rows.
  const db = store.connection.db;
  let found = 0;
  let wanted = 0;
  for (let i = 0; i < 50; i++) {
    const vector = `[${embedder.vectorOf(queryFrom(bigContents, i)).join(',')}]`;
    const nearest = (/** @type {boolean} */ exact) =>
      db.transaction().execute(async (trx) => {
        await sql`SELECT set_config('hnsw.ef_search', '40', true), set_config('hnsw.iterative_scan', 'relaxed_order', true)`.execute(trx);
        if (exact) await sql`SET LOCAL enable_indexscan = off`.execute(trx);
        const result = await sql`SELECT id FROM memories WHERE user_id = ${BIG} AND deleted_at IS NULL AND embedding IS NOT NULL
          AND vector_shard = ${sql.lit(vectorShardOf(BIG))}
          ORDER BY embedding <=> ${vector}::vector LIMIT 30`.execute(trx);
        return /** @type {{ id: string }[]} */ (result.rows).map((row) => row.id);
      });
    const [approximate, exact] = [await nearest(false), await nearest(true)];
    wanted += exact.length;
    found += exact.filter((id) => approximate.includes(id)).length;
  }
  return ms(found / wanted);
}

/** @param {keyof typeof SIZES} engine */
async function benchEngine(engine) {
  const size = SIZES[engine];
  const tmp = mkdtempSync(join(tmpdir(), 'memsvc-recall-'));
  const database = engine === 'postgres' ? await postgresDatabase(root) : { url: `pglite://${join(tmp, 'data')}`, drop: async () => {} };
  try {
    let store = await openStore({ database: database.url, vector: { dimensions: embedder.dimensions } });
    process.stderr.write(`recall bench: ${engine}: seeding ${size.total} memories (${size.tenant} in one tenant) …\n`);
    const seeded = await seed(store, size);
    await store.close();

    const server = await startServer(root, database.url);
    let latency;
    try {
      const client = await mcpClient(server.base);
      /** @type {(i: number, extra?: string) => Promise<{ results: { text: string }[] }>} */
      const call = async (i, extra) => {
        const result = await client.callTool({
          name: 'recall',
          arguments: { userId: BIG, query: queryFrom(seeded.bigContents, i, extra), limit: 10 },
        });
        if (result.isError) throw new Error(`recall failed: ${JSON.stringify(result.structuredContent)}`);
        return /** @type {any} */ (result.structuredContent);
      };
      /** @type {number[]} */
      const warming = [];
      for (let i = 0; i < WARMUP; i++) {
        const t0 = performance.now();
        await call(QUERIES + i);
        warming.push(performance.now() - t0);
      }
      const measure = async (/** @type {string} */ extra) => {
        /** @type {number[]} */
        const samples = [];
        let firstHits = 0;
        for (let i = 0; i < QUERIES; i++) {
          const t0 = performance.now();
          const body = await call(i, extra);
          samples.push(performance.now() - t0);
          if (body.results[0]?.text === seeded.bigContents[(i * 104_729) % seeded.bigContents.length]) firstHits++;
        }
        return { ...percentileSummary(samples), sourceMemoryFirst: ms(firstHits / QUERIES) };
      };
      latency = { ...(await measure('')), warming: percentileSummary(warming), withCommonWord: await measure(COMMON_WORD) };
      await client.close();
    } finally {
      await server.stop();
    }

    store = await openStore({ database: database.url, vector: { dimensions: embedder.dimensions } });
    const query = queryFrom(seeded.bigContents, 1);
    const plan = await store.memories.explainRecall(toTenantId(BIG), {
      text: `${query} ${COMMON_WORD}`,
      vector: embedder.vectorOf(query),
      perList: 30,
      minSimilarity: FUSION_WEIGHTS.local.minVectorSimilarity,
      lexical: LEXICAL_RANKING,
      filters: {},
      now: new Date(),
    });
    const annRecallAt30 = await annRecall(store, seeded.bigContents);
    await store.close();
    return {
      engine,
      memories: size.total,
      tenantMemories: size.tenant,
      seed: {
        loadSeconds: seeded.loadSeconds,
        rowsPerSecond: Math.round(size.total / seeded.loadSeconds),
        hnswBuildSeconds: seeded.indexSeconds,
      },
      recall: latency,
      plan: {
        usesHnsw: plan.includes(hnswShardIndexName(vectorShardOf(BIG))),
        usesPostings: plan.includes('memory_terms_impact_idx'),
        text: plan,
      },
      annRecallAt30,
    };
  } finally {
    // RECALL_KEEP_DATABASE=1 leaves the seeded PostgreSQL database for EXPLAIN experiments.
    if (process.env.RECALL_KEEP_DATABASE === '1' && engine === 'postgres') process.stderr.write(`recall bench: kept ${database.url}\n`);
    else await database.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

const results = [];
for (const engine of ENGINES) results.push(await benchEngine(engine));
const at = new Date().toISOString();
const outDir = join(root, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
const outFile = join(outDir, `recall-${at.replace(/[:.]/g, '-')}.json`);
writeFileSync(outFile, `${JSON.stringify({ at, queries: QUERIES, warmup: WARMUP, results }, null, 2)}\n`);
for (const r of results) {
  console.log(`\n== ${r.engine}: ${r.tenantMemories} memories in the tenant, ${r.memories} in all ==`);
  console.log(`seed: ${r.seed.rowsPerSecond} rows/s (${r.seed.loadSeconds} s), HNSW build + vacuum ${r.seed.hnswBuildSeconds} s`);
  console.log(
    `recall over MCP (warm, ${QUERIES} queries): P50 ${r.recall.p50} ms, P95 ${r.recall.p95} ms, P99 ${r.recall.p99} ms; source memory ranked first in ${r.recall.sourceMemoryFirst * 100}%`,
  );
  const c = r.recall.withCommonWord;
  console.log(
    `  the same queries with "${COMMON_WORD}" (in 20% of the tenant's memories): P50 ${c.p50} ms, P95 ${c.p95} ms, P99 ${c.p99} ms; source memory first in ${c.sourceMemoryFirst * 100}%`,
  );
  const w = r.recall.warming;
  if (w.n > 0) console.log(`  while warming (the ${w.n} calls before): P50 ${w.p50} ms, P95 ${w.p95} ms, P99 ${w.p99} ms`);
  console.log(
    `plan uses the HNSW shard: ${r.plan.usesHnsw}, the impact-ordered postings: ${r.plan.usesPostings}; approximate vs exact recall@30 of the vector list: ${r.annRecallAt30}`,
  );
  console.log(r.plan.text);
}
console.log(`\nwritten to ${outFile}`);
