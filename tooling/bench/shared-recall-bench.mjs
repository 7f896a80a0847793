#!/usr/bin/env node
// @ts-check
// memsvc shared-space recall benchmark (issue 43): recall of a reader's own memories beside the
// same recall that also searches two spaces shared with it by grant, measured in the same run,
// alternating call by call. Seeds SHARED_TENANT memories (default 50,000) for the reader and for
// each of two owners (all of theirs in the shared space), builds the HNSW shard indexes after the
// load, and measures warm recall latency (P50/P95/P99) through the engine on one store (no MCP:
// the difference is the shared spaces' candidate reads, run in parallel on the pool).
// Target: shared P95 within 20% of own P95. Environment: SHARED_ENGINE (postgres, default, or
// pglite), SHARED_TENANT, SHARED_QUERIES (default 1000 of each), SHARED_WARMUP (default 300).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentFingerprintText, createMemoryEngine, FUSION_WEIGHTS, toTenantId } from '@memsvc/core';
import { LocalEmbedder } from '@memsvc/embeddings';
import { HNSW_SHARD_INDEX_NAMES, openStore, UuidV7Generator } from '@memsvc/store-pg';
import { sql } from 'kysely';
import { ms, percentileSummary, postgresDatabase, printColumns, sentence, vocabularyWord, writeBenchReport } from './bench-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ENGINE = /** @type {'postgres' | 'pglite'} */ (process.env.SHARED_ENGINE ?? 'postgres');
const PER_TENANT = Number(process.env.SHARED_TENANT ?? 50_000);
const QUERIES = Number(process.env.SHARED_QUERIES ?? 1000);
const WARMUP = Number(process.env.SHARED_WARMUP ?? 300);
const SPACE = 'project:shared';
const READER = 'reader';
const OWNERS = ['owner-a', 'owner-b'];
const embedder = new LocalEmbedder();
const ids = new UuidV7Generator();

/** @typedef {Awaited<ReturnType<typeof openStore>>} Store */

/** @param {Store} store */
async function seed(store) {
  const db = store.connection.db;
  const { rows } = /** @type {{ rows: { indexname: string, indexdef: string }[] }} */ (
    await sql`SELECT indexname, indexdef FROM pg_indexes WHERE indexname = ANY(${[...HNSW_SHARD_INDEX_NAMES]})`.execute(db)
  );
  for (const row of rows) await sql`DROP INDEX ${sql.id(row.indexname)}`.execute(db);
  /** @type {Record<string, string[]>} */
  const contents = { [READER]: [], [OWNERS[0] ?? '']: [], [OWNERS[1] ?? '']: [] };
  const started = performance.now();
  const now = Date.now();
  const tenants = [READER, ...OWNERS];
  for (let offset = 0; offset < PER_TENANT * tenants.length; offset += 1000) {
    const batch = [];
    for (let i = offset; i < Math.min(PER_TENANT * tenants.length, offset + 1000); i++) {
      const owner = /** @type {string} */ (tenants[i % tenants.length]);
      const content = sentence();
      contents[owner]?.push(content);
      const created = new Date(now - Math.floor((i * 7919) % (365 * 86_400)) * 1000);
      batch.push({
        id: ids.next(),
        user_id: owner,
        tier: /** @type {const} */ ('ltm'),
        scope: owner === READER ? null : SPACE,
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
  await sql`SET maintenance_work_mem = '512MB'`.execute(db).catch(() => undefined);
  for (const row of rows) await sql.raw(row.indexdef).execute(db);
  await sql`VACUUM (ANALYZE) memories, memory_terms, lexical_terms, lexical_corpus`.execute(db);
  return { contents, loadSeconds: ms(loadSeconds) };
}

/**
 * Three words of a memory of the reader or of an owner, and one from anywhere.
 * @param {Record<string, string[]>} contents
 * @param {number} i
 */
function queryFrom(contents, i) {
  const pool = /** @type {string[]} */ (contents[/** @type {string} */ ([READER, ...OWNERS][i % 3])]);
  const words = /** @type {string} */ (pool[(i * 104_729) % pool.length]).split(' ');
  return `${words[(i * 3) % words.length]} ${words[(i * 5 + 1) % words.length]} ${words[(i * 7 + 2) % words.length]} ${vocabularyWord(i)}`;
}

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'memsvc-shared-'));
  const database = ENGINE === 'postgres' ? await postgresDatabase(root) : { url: `pglite://${join(tmp, 'data')}`, drop: async () => {} };
  const store = await openStore({ database: database.url });
  try {
    process.stderr.write(`shared recall bench: ${ENGINE}: seeding ${PER_TENANT} memories for the reader and each of two owners …\n`);
    const { contents, loadSeconds } = await seed(store);
    const clock = { now: () => new Date() };
    const engine = createMemoryEngine({
      store: store.memories,
      embedder,
      clock,
      fusion: FUSION_WEIGHTS.local,
      grants: store.grants,
      erasures: store.erasures,
    });
    for (const owner of OWNERS) {
      await engine.grant(
        { tenant: toTenantId(owner), actor: { id: `user:${owner}` } },
        { space: SPACE, grantee: { kind: 'user', id: READER }, access: 'read' },
      );
    }
    const reader = { tenant: toTenantId(READER), actor: { id: `user:${READER}` } };
    const shared = OWNERS.map((owner) => ({ owner, space: SPACE }));
    // `own`: shared "none", no grant looked up; `lookup`: a plain recall, which looks up the
    // reader's grants and finds none chosen (what every recall pays once grants exist);
    // `shared`: both spaces named.
    /** @type {{ own: number[], lookup: number[], shared: number[] }} */
    const samples = { own: [], lookup: [], shared: [] };
    /** @type {Record<string, 'none' | 'default' | typeof shared>} */
    const selection = { own: 'none', lookup: 'default', shared };
    let sharedHits = 0;
    for (let i = 0; i < WARMUP + QUERIES; i++) {
      const query = queryFrom(contents, i);
      // Alternating which goes first, so neither always meets a warmer cache.
      const order =
        [
          ['own', 'lookup', 'shared'],
          ['shared', 'own', 'lookup'],
          ['lookup', 'shared', 'own'],
        ][i % 3] ?? [];
      for (const kind of order) {
        const started = performance.now();
        const { results } = await engine.recall(reader, { query, limit: 10, shared: selection[kind] });
        const elapsed = performance.now() - started;
        if (i < WARMUP) continue;
        samples[/** @type {'own' | 'lookup' | 'shared'} */ (kind)].push(elapsed);
        if (kind === 'shared' && results.some((result) => result.memory.userId !== READER)) sharedHits++;
      }
    }
    const own = percentileSummary(samples.own);
    const lookup = percentileSummary(samples.lookup);
    const withShared = percentileSummary(samples.shared);
    const report = {
      at: new Date().toISOString(),
      engine: ENGINE,
      memoriesPerTenant: PER_TENANT,
      loadSeconds,
      queries: QUERIES,
      own,
      lookup,
      shared: withShared,
      p95Ratio: ms(withShared.p95 / own.p95),
      sharedHitShare: ms(sharedHits / QUERIES),
    };
    console.log(`\n== shared recall (${ENGINE}): ${PER_TENANT} memories each for the reader and two owners ==`);
    printColumns([
      ['recall', 'P50 ms', 'P95 ms', 'P99 ms'],
      ['own memories only (shared: none)', String(own.p50), String(own.p95), String(own.p99)],
      ['own, grants looked up (default)', String(lookup.p50), String(lookup.p95), String(lookup.p99)],
      ['own + two shared spaces', String(withShared.p50), String(withShared.p95), String(withShared.p99)],
    ]);
    console.log(
      `P95 shared / own: ${report.p95Ratio} (target ≤ 1.2); a shared hit in the top 10 of ${report.sharedHitShare * 100}% of queries`,
    );
    console.log(`report: ${writeBenchReport(root, 'shared-recall', report)}`);
  } finally {
    await store.close();
    await database.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
