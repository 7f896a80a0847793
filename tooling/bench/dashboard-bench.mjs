#!/usr/bin/env node
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-check
// The dashboard at scale (issue 18's budget: with 50,000 memories in the tenant on PostgreSQL, the
// memories page and a search page answer in P95 <= 50 ms, and no page transfers 100 KB).
// memsvc-server with MEMSVC_SERVE_DASHBOARD and dev auth on a PostgreSQL database; the tenant is
// seeded through the import path (local vectors, so search ranks as it would in use) with a few
// pinned and stale memories among them. Each page is fetched DASHBOARD_BENCH_REQUESTS times, one
// at a time after a warm-up, in rotating rounds; latency is the whole HTTP exchange on loopback
// (an upper bound of the server's time). Prints the table and writes bench/results/dashboard-<ts>.json.
// Environment: DASHBOARD_BENCH_MEMORIES (default 50000), DASHBOARD_BENCH_REQUESTS (default 200).
import { createMemoryEngine, systemClock, toTenantId } from '@memsvc/core';
import { LocalEmbedder } from '@memsvc/embeddings';
import { openStore } from '@memsvc/store-pg';
import { percentileSummary, postgresDatabase, sentence, startServer, vocabularyWord } from './bench-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MEMORIES = Number(process.env.DASHBOARD_BENCH_MEMORIES ?? 50_000);
const REQUESTS = Number(process.env.DASHBOARD_BENCH_REQUESTS ?? 200);
const USER = 'bench-user';
const BATCH = 2_000;
const log = (/** @type {string} */ message) => process.stderr.write(`dashboard bench: ${message}\n`);

/** 50k memories written as an import writes them: ids in time order, every tenth with a tag, one in a thousand pinned or stale. */
/** @param {string} databaseUrl */
async function seed(databaseUrl) {
  const store = await openStore({ database: databaseUrl });
  const embedder = new LocalEmbedder();
  const tenant = toTenantId(USER);
  const start = Date.now() - MEMORIES * 1000;
  try {
    // One write through the engine first: it fixes the vector space, so the imported vectors are kept.
    const engine = createMemoryEngine({
      store: store.memories,
      embedder,
      clock: systemClock,
      grants: store.grants,
      erasures: store.erasures,
    });
    await engine.create({ tenant, actor: { id: 'bench' } }, { tier: 'ltm', content: sentence() });
    for (let from = 0; from < MEMORIES; from += BATCH) {
      const count = Math.min(BATCH, MEMORIES - from);
      const contents = Array.from({ length: count }, () => sentence());
      const vectors = await embedder.embed(contents);
      const memories = contents.map((content, i) => {
        const n = from + i;
        const at = new Date(start + n * 1000);
        return {
          id: uuidV7At(at),
          tier: 'ltm',
          scope: n % 3 === 0 ? 'project:alpha' : null,
          content,
          tags: n % 10 === 0 ? ['release'] : [],
          metadata: {},
          importance: null,
          importanceScore: 0.5,
          pinned: n % 1000 === 1,
          stale: n % 1000 === 2,
          contradicted: false,
          supersededBy: null,
          accessCount: 0,
          lastAccessedAt: null,
          expiresAt: null,
          deletedAt: null,
          version: 1,
          embeddingModel: embedder.model,
          searchContext: null,
          createdAt: at,
          updatedAt: at,
          links: [],
          audit: [],
          embedding: { vector: vectors?.[i] ?? [], embeddedAt: at },
        };
      });
      // Like a file from before `replacedBy` existed, the seed leaves that field out.
      await store.imports.importMemories(
        tenant,
        /** @type {Parameters<typeof store.imports.importMemories>[1]} */ (/** @type {unknown} */ (memories)),
        { dryRun: false },
      );
      if ((from / BATCH) % 5 === 0) log(`seeded ${from + count} of ${MEMORIES}`);
    }
    const newest = await store.memories.list(tenant, { limit: 1 });
    return newest.items[0]?.id;
  } finally {
    await store.close();
  }
}

/** A UUIDv7 for a moment, so ids sort as the memories were created (the list pages by id). */
/** @param {Date} date */
function uuidV7At(date) {
  const hex = date.getTime().toString(16).padStart(12, '0');
  const random = randomUUID().replaceAll('-', '');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${random.slice(13, 16)}-${((Number.parseInt(/** @type {string} */ (random[16]), 16) & 0x3) | 0x8).toString(16)}${random.slice(17, 20)}-${random.slice(20, 32)}`;
}

/** @param {string} databaseUrl */
async function countVectors(databaseUrl) {
  const store = await openStore({ database: databaseUrl, migrate: false });
  try {
    const page = await store.connection.db
      .selectFrom('memories')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('embedding', 'is not', null)
      .executeTakeFirst();
    return Number(page?.n ?? 0);
  } finally {
    await store.close();
  }
}

/** @param {string} url */
async function timed(url) {
  const started = performance.now();
  const response = await fetch(url);
  const body = await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return { elapsed, bytes: body.byteLength };
}

const database = await postgresDatabase(root);
let server;
try {
  log(`seeding ${MEMORIES} memories`);
  const newestId = await seed(database.url);
  server = await startServer(root, database.url, {
    NODE_ENV: 'development',
    MEMSVC_SERVE_DASHBOARD: 'true',
    MEMSVC_DASHBOARD_DEV_AUTH: 'true',
    MEMSVC_DEFAULT_USER_ID: USER,
  });
  const base = `${server.base}/dashboard`;
  // A cursor deep in the list: the 500th page's.
  let deepCursor;
  {
    let url = `${base}/memories`;
    for (let page = 0; page < 20; page += 1) {
      const html = await (await fetch(url)).text();
      const next = /href="[^"]*[?&]cursor=([0-9a-f-]{36})"/.exec(html)?.[1];
      if (!next) break;
      deepCursor = next;
      url = `${base}/memories?cursor=${next}`;
    }
  }
  const pages = {
    'memories, first page': `${base}/memories`,
    'memories, page 21': `${base}/memories?cursor=${deepCursor}`,
    'memories, tag + scope': `${base}/memories?tags=release&scope=project%3Aalpha`,
    'memories, pinned (1 in 1,000)': `${base}/memories?marker=pinned`,
    'memories, date range': `${base}/memories?from=${new Date(Date.now() - 3 * 86400_000).toISOString().slice(0, 10)}`,
    search: `${base}/memories?q=${encodeURIComponent(`${vocabularyWord(3)} ${vocabularyWord(11)} ${vocabularyWord(29)}`)}`,
    'search, two words': `${base}/memories?q=${encodeURIComponent(`${vocabularyWord(1)} ${vocabularyWord(2)}`)}`,
    'a memory': `${base}/memories/${newestId}`,
  };
  /** @type {Record<string, { times: number[], bytes: number }>} */
  const samples = Object.fromEntries(Object.keys(pages).map((name) => [name, { times: /** @type {number[]} */ ([]), bytes: 0 }]));
  for (const [name, url] of Object.entries(pages))
    for (let i = 0; i < 10; i += 1) /** @type {{ bytes: number }} */ (samples[name]).bytes = (await timed(url)).bytes;
  const rounds = 4;
  for (let round = 0; round < rounds; round += 1) {
    for (const [name, url] of Object.entries(pages)) {
      for (let i = 0; i < REQUESTS / rounds; i += 1)
        /** @type {{ times: number[] }} */ (samples[name]).times.push((await timed(url)).elapsed);
    }
  }
  const vectors = await countVectors(database.url);
  log(`${vectors} of ${MEMORIES + 1} memories carry a vector`);
  const rows = Object.entries(samples).map(([name, { times, bytes }]) => ({
    page: name,
    ...percentileSummary(times),
    kb: Math.round(bytes / 102.4) / 10,
  }));
  console.log(`\nDashboard at ${MEMORIES} memories in one tenant (PostgreSQL; ms on loopback; budget P95 <= 50 ms, < 100 KB)\n`);
  console.log('| page | P50 ms | P95 ms | P99 ms | KB |');
  console.log('|---|---|---|---|---|');
  for (const row of rows) console.log(`| ${row.page} | ${row.p50} | ${row.p95} | ${row.p99} | ${row.kb} |`);
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  const file = join(root, 'bench', 'results', `dashboard-${new Date().toISOString().replaceAll(':', '-')}.json`);
  writeFileSync(file, JSON.stringify({ memories: MEMORIES, requests: REQUESTS, rows }, null, 2));
  log(`wrote ${file}`);
} finally {
  await server?.stop();
  await database.drop();
}
