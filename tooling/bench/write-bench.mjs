#!/usr/bin/env node
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-check
// memsvc write throughput against the database's own ceiling (issue 19). For each case, in a
// fresh database (migrated, vector column typed, the 16 HNSW shard indexes built, as a server
// leaves it), side by side in one run:
//   ceiling      plain INSERTs of the same vectors, CLIENTS connections, into a scratch table with
//                the memories table's own HNSW index definitions (copied from pg_indexes: the
//                same opclass, m/ef_construction and per-shard partial predicate) — no memsvc;
//   memsvc       create_memory through the engine in process (core's MemoryEngine over the
//                store, the local embedder, the spec's default write rules: what the tool's
//                handler calls), CLIENTS callers at once — memsvc's write path without HTTP;
//   memsvc HTTP  the same through the real memsvc-server over streamable HTTP, CLIENTS MCP
//                clients (the load generator shares the machine's cores with the server);
// for one tenant, then for TENANTS tenants × CLIENTS callers each (their ceiling: the same rows
// over the same tenants, CLIENTS connections); and the vector backfill: BACKFILL memories over
// 151 tenants stored without vectors, embedded by the reindex use-case (core's reindex (Maintenance.runReindexJob) over the
// store, batches of 1,000, as reindex_memories runs it), as it is and with every shard index
// kept live (as before issue 19), beside its raw reference (UPDATE of the same vectors, 1,000 a
// statement, indexes live). Every case writes the same contents (the
// bench's pseudo-word sentences, far apart for the local embedder, so no write collapses).
// Writes bench/results/write-<timestamp>.json and prints case, rows/s, ratio to the ceiling.
// Environment: WRITE_BENCH_ENGINES (default "postgres"; "pglite" runs the in-process cases on an
// embedded database), WRITE_BENCH_WRITES (default 10000 per write case), WRITE_BENCH_CLIENTS (8),
// WRITE_BENCH_TENANTS (100), WRITE_BENCH_BACKFILL (50000), WRITE_BENCH_CASES (default
// "one-tenant,tenants,http,backfill"). A quick run: WRITE_BENCH_WRITES=2000 WRITE_BENCH_BACKFILL=10000.
import { createMemoryEngine, DEFAULT_ENGINE_SETTINGS, Maintenance, systemClock, toTenantId } from '@memsvc/core';
import { LocalEmbedder } from '@memsvc/embeddings';
import { HNSW_SHARD_INDEX_NAMES, openStore, PgReindexStore, UuidV7Generator } from '@memsvc/store-pg';
import { CompiledQuery, sql } from 'kysely';
import {
  mcpClient,
  postgresDatabase,
  printColumns,
  seedWithoutVectors,
  sentence,
  startServer,
  writeBenchReport,
} from './bench-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ENGINES = (process.env.WRITE_BENCH_ENGINES ?? 'postgres').split(',');
const WRITES = Number(process.env.WRITE_BENCH_WRITES ?? 10_000);
const CLIENTS = Number(process.env.WRITE_BENCH_CLIENTS ?? 8);
const TENANTS = Number(process.env.WRITE_BENCH_TENANTS ?? 100);
const BACKFILL = Number(process.env.WRITE_BENCH_BACKFILL ?? 50_000);
const BACKFILL_TENANTS = 151;
const CASES = new Set((process.env.WRITE_BENCH_CASES ?? 'one-tenant,tenants,http,backfill').split(','));
const MODEL = 'memsvc-local-v1';
const CEILING_TABLE = 'write_ceiling';
const embedder = new LocalEmbedder();
const ids = new UuidV7Generator();
/**
 * @typedef {Awaited<ReturnType<typeof openStore>>} Store
 * @typedef {import('kysely').Kysely<any>} Db
 * @typedef {{ contents: string[], vectors: string[], tenants: string[] }} Workload
 * @typedef {{ case: string, seconds: number, perSecond: number, ratio?: number, failed?: number, firstError?: string } & Record<string, unknown>} CaseResult
 * @typedef {CaseResult & { engine: string, writes: number }} Result
 */

const round = (/** @type {number} */ value, places = 2) => Math.round(value * 10 ** places) / 10 ** places;
const log = (/** @type {string} */ message) => process.stderr.write(`write bench: ${message}\n`);

/**
 * A fresh, migrated database with its vector space fixed (shard indexes built): {url, drop()}.
 * @param {string} engine
 * @returns {Promise<{ url: string, drop: () => Promise<void> }>}
 */
async function freshDatabase(engine) {
  if (engine === 'postgres') return postgresDatabase(root);
  const dir = mkdtempSync(join(tmpdir(), 'memsvc-write-bench-'));
  return { url: `pglite://${join(dir, 'data')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** @param {string} url */
async function openBenchStore(url) {
  return openStore({ database: url, vector: { model: MODEL } });
}

/**
 * The scratch table of the ceiling: id, tenant, the same generated shard column and the same
 * vector type, with memsvc's HNSW shard indexes re-created on it from their own definitions.
 * @param {Db} db
 */
async function createCeilingTable(db) {
  const { rows: columns } = /** @type {{ rows: { type: string }[] }} */ (
    await sql`
    SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
    WHERE attrelid = 'memories'::regclass AND attname = 'embedding'`.execute(db)
  );
  const { rows: shard } = /** @type {{ rows: { expression: string }[] }} */ (
    await sql`
    SELECT pg_get_expr(adbin, adrelid) AS expression FROM pg_attrdef
    WHERE adrelid = 'memories'::regclass AND adnum = (SELECT attnum FROM pg_attribute WHERE attrelid = 'memories'::regclass AND attname = 'vector_shard')`.execute(
      db,
    )
  );
  const { rows: indexes } = /** @type {{ rows: { indexname: string, indexdef: string }[] }} */ (
    await sql`SELECT indexname, indexdef FROM pg_indexes WHERE indexname = ANY(${[...HNSW_SHARD_INDEX_NAMES]})`.execute(db)
  );
  if (indexes.length !== HNSW_SHARD_INDEX_NAMES.length) throw new Error('the HNSW shard indexes of memories are missing');
  await sql
    .raw(`CREATE TABLE ${CEILING_TABLE} (id uuid PRIMARY KEY, user_id text NOT NULL,
      vector_shard smallint GENERATED ALWAYS AS (${/** @type {{ expression: string }} */ (shard[0]).expression}) STORED, embedding ${/** @type {{ type: string }} */ (columns[0]).type})`)
    .execute(db);
  for (const { indexname, indexdef } of indexes) {
    const definition = indexdef
      .replace(indexname, `${CEILING_TABLE}_${indexname}`)
      .replace(/ ON (public\.)?memories /, ` ON ${CEILING_TABLE} `);
    if (!definition.includes(` ON ${CEILING_TABLE} `)) throw new Error(`cannot re-target ${indexdef}`);
    await sql.raw(definition).execute(db);
  }
  return /** @type {{ indexdef: string }} */ (indexes[0]).indexdef;
}

/**
 * Runs `work(n)` for n = 0 … total-1 from `clients` closed-loop callers; returns seconds.
 * @param {number} total
 * @param {number} clients
 * @param {(n: number, client: number) => Promise<unknown>} work
 */
async function closedLoop(total, clients, work) {
  let issued = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (;;) {
        const n = issued++;
        if (n >= total) return;
        await work(n, client);
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

/**
 * The workload of one write case: contents, their vectors (as pgvector text) and tenants.
 * @param {number} total
 * @param {(i: number) => string} tenantOf
 * @returns {Workload}
 */
function workload(total, tenantOf) {
  const contents = Array.from({ length: total }, () => sentence());
  return {
    contents,
    vectors: contents.map((content) => `[${embedder.vectorOf(content).join(',')}]`),
    tenants: contents.map((_, i) => tenantOf(i)),
  };
}

/**
 * @param {Db} db
 * @param {Workload} work
 * @param {number} clients
 */
async function ceiling(db, work, clients) {
  const rowIds = work.contents.map(() => ids.next());
  const seconds = await closedLoop(work.contents.length, clients, (n) =>
    db.executeQuery(
      CompiledQuery.raw(`INSERT INTO ${CEILING_TABLE} (id, user_id, embedding) VALUES ($1, $2, $3::vector)`, [
        rowIds[n],
        work.tenants[n],
        work.vectors[n],
      ]),
    ),
  );
  return { seconds, perSecond: Math.round(work.contents.length / seconds) };
}

/**
 * @param {Store} store
 * @param {Workload} work
 * @param {number} clients
 */
async function memsvcInProcess(store, work, clients) {
  const engine = createMemoryEngine({
    store: store.memories,
    embedder,
    clock: systemClock,
    settings: DEFAULT_ENGINE_SETTINGS,
    grants: store.grants,
    erasures: store.erasures,
  });
  const outcomes = { created: 0, duplicate: 0, contradictions: 0 };
  const failures = failureCounter();
  const seconds = await closedLoop(work.contents.length, clients, async (n) => {
    try {
      const result = await engine.create(
        { tenant: toTenantId(/** @type {string} */ (work.tenants[n])), actor: { id: 'bench' } },
        { content: /** @type {string} */ (work.contents[n]), tier: 'ltm' },
      );
      outcomes[result.outcome]++;
      outcomes.contradictions += result.contradictions.length;
    } catch (error) {
      failures.add(error);
    }
  });
  return { seconds, perSecond: Math.round(outcomes.created / seconds), outcomes, ...failures.summary() };
}

/**
 * Failed writes are counted, not fatal: with hundreds of callers a write may wait longer for a
 * pooled connection than the pool allows, and that is a result too. Rates count successes only.
 */
function failureCounter() {
  let count = 0;
  /** @type {string | undefined} */
  let first;
  return {
    add: (/** @type {any} */ error) => {
      count++;
      first ??= String(error?.message ?? error);
    },
    summary: () => (count === 0 ? {} : { failed: count, firstError: first }),
  };
}

/**
 * @param {string} url
 * @param {Workload} work
 * @param {number} clients
 */
async function memsvcHttp(url, work, clients) {
  const server = await startServer(root, url, {
    STM_SWEEP_INTERVAL_MS: '0',
    STM_CONSOLIDATION_INTERVAL_MS: '0',
    AUTH_STORE_SWEEP_INTERVAL_MS: '0',
    MEMORY_DECAY_INTERVAL_MS: '0',
  });
  try {
    const writers = await Promise.all(Array.from({ length: clients }, () => mcpClient(server.base)));
    const failures = failureCounter();
    let created = 0;
    const seconds = await closedLoop(work.contents.length, clients, async (n, client) => {
      try {
        const result = await /** @type {import('./bench-support.mjs').McpClient} */ (writers[client]).callTool({
          name: 'create_memory',
          arguments: { userId: work.tenants[n], content: work.contents[n], type: 'long-term' },
        });
        if (result.isError) throw new Error(`create_memory failed: ${JSON.stringify(result.structuredContent)}`);
        created++;
      } catch (error) {
        failures.add(error);
      }
    });
    await Promise.all(writers.map((writer) => writer.close()));
    return { seconds, perSecond: Math.round(created / seconds), ...failures.summary() };
  } finally {
    await server.stop();
  }
}

/**
 * @param {Db} db
 * @param {string} table
 */
async function countRows(db, table) {
  const { rows } = await sql`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(db);
  return /** @type {{ n: number }} */ (rows[0]).n;
}

/**
 * One write case: the ceiling, memsvc in process and (PostgreSQL) memsvc over HTTP, each in its own fresh database.
 * @param {string} engine
 * @param {string} name
 * @param {(i: number) => string} tenantOf
 * @param {number} callers
 * @param {Result[]} results
 */
async function writeCase(engine, name, tenantOf, callers, results) {
  const work = workload(WRITES, tenantOf);
  const context = { engine, writes: WRITES, clients: callers };
  const record = (/** @type {CaseResult} */ entry) => {
    const full = { ...context, ...entry };
    log(JSON.stringify(full));
    results.push(full);
    return full;
  };
  /** @type {number} */
  let ceilingRate;
  {
    const database = await freshDatabase(engine);
    const store = await openBenchStore(database.url);
    try {
      const indexdef = await createCeilingTable(store.connection.db);
      // The ceiling has no use for more than CLIENTS connections: it is one INSERT per client.
      const run = await ceiling(store.connection.db, work, CLIENTS);
      ceilingRate = run.perSecond;
      record({
        case: `${name}: ceiling (plain INSERT, same HNSW index)`,
        ...run,
        rows: await countRows(store.connection.db, CEILING_TABLE),
        indexdef,
      });
      const memsvc = await memsvcInProcess(store, work, callers);
      record({ case: `${name}: memsvc create (engine in process)`, ...memsvc, ratio: round(memsvc.perSecond / ceilingRate) });
    } finally {
      await store.close();
      await database.drop();
    }
  }
  if (engine === 'postgres' && CASES.has('http')) {
    const database = await freshDatabase(engine);
    try {
      const opened = await openBenchStore(database.url);
      await opened.close();
      const http = await memsvcHttp(database.url, work, callers);
      record({ case: `${name}: memsvc create_memory (server over HTTP)`, ...http, ratio: round(http.perSecond / ceilingRate) });
    } finally {
      await database.drop();
    }
  }
}

/** Maintenance's thresholds; only the reindex runs here, so they are the spec's defaults and unused. */
const MAINTENANCE_SETTINGS = {
  promotion: { accessThreshold: 3, importanceThreshold: 0.7 },
  decay: { halfLifeDays: 14, batchSize: 500, staleScoreThreshold: 0.15, pruneScoreThreshold: 0.05, pruneOlderThanDays: 90 },
  similarity: DEFAULT_ENGINE_SETTINGS.similarity,
  mergeThreshold: 0.9,
};

/**
 * Memories without vectors embedded by the reindex use-case, batches of 1,000, as reindex_memories runs it.
 * @param {Store} store
 * @param {Store['reindex']} reindexStore
 */
async function reindexBackfill(store, reindexStore) {
  const t0 = performance.now();
  const maintenance = new Maintenance({
    lifecycle: store.lifecycle,
    memories: store.memories,
    reindexStore,
    jobs: store.reindexJobs,
    review: store.review,
    embedder,
    clock: systemClock,
    settings: MAINTENANCE_SETTINGS,
  });
  const summary = await maintenance.runReindexJob(
    { tenant: undefined, batchSize: 1000, reuseExistingEmbeddings: true, recreate: false, cursor: undefined, maxMemories: undefined },
    {},
  );
  const seconds = (performance.now() - t0) / 1000;
  const { rows } = await sql`SELECT count(*) FILTER (WHERE embedding IS NULL)::int AS missing,
      (SELECT count(*)::int FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE c.relname = ANY(${[...HNSW_SHARD_INDEX_NAMES]}) AND i.indisvalid) AS "validShardIndexes" FROM memories`.execute(
    store.connection.db,
  );
  return {
    seconds,
    perSecond: Math.round(BACKFILL / seconds),
    summary: { processed: summary.processed, indexed: summary.indexed, failed: summary.failed },
    after: rows[0],
  };
}

/**
 * The backfill, three ways, each over BACKFILL memories seeded without vectors in a fresh
 * database: the raw reference (UPDATE of the same vectors into a copy of the rows, 1,000 a
 * statement, the same HNSW indexes live); memsvc's reindex with every shard index kept live (what
 * it did before issue 19: each vector inserted into its graph); memsvc's reindex as it is (the
 * shards it fills have their index taken off and built once at the end, PgReindexStore).
 * @param {string} engine
 * @param {Result[]} results
 */
async function backfillCase(engine, results) {
  const tenantOf = (/** @type {number} */ i) => `tenant-${i % BACKFILL_TENANTS}`;
  const base = { engine, writes: BACKFILL, tenants: BACKFILL_TENANTS };
  const record = (/** @type {CaseResult} */ entry) => {
    results.push({ ...base, ...entry });
    log(JSON.stringify(results.at(-1)));
  };
  /** @type {number} */
  let rawRate;
  {
    const database = await freshDatabase(engine);
    const store = await openBenchStore(database.url);
    try {
      const db = store.connection.db;
      await seedWithoutVectors(db, BACKFILL, tenantOf, ids);
      await createCeilingTable(db);
      await sql.raw(`INSERT INTO ${CEILING_TABLE} (id, user_id) SELECT id, user_id FROM memories`).execute(db);
      const { rows } = /** @type {{ rows: { id: string, content: string }[] }} */ (
        await sql`SELECT id, content FROM memories ORDER BY id`.execute(db)
      );
      const started = performance.now();
      for (let offset = 0; offset < rows.length; offset += 1000) {
        const part = rows.slice(offset, offset + 1000);
        await sql`UPDATE ${sql.table(CEILING_TABLE)} AS c SET embedding = w.embedding
          FROM (SELECT unnest(${part.map((row) => row.id)}::uuid[]) AS id,
                       unnest(${part.map((row) => `[${embedder.vectorOf(row.content).join(',')}]`)}::text[])::vector AS embedding) AS w
          WHERE c.id = w.id`.execute(db);
      }
      const seconds = (performance.now() - started) / 1000;
      rawRate = Math.round(BACKFILL / seconds);
      record({ case: `backfill ${BACKFILL}: raw UPDATE of the vectors, indexes live`, seconds, perSecond: rawRate });
      await sql.raw(`DROP TABLE ${CEILING_TABLE}`).execute(db);
      const live = new PgReindexStore(db, store.vectorSpace, systemClock, store.connection.engine, {
        backfillShardMinimum: Number.MAX_SAFE_INTEGER,
      });
      const before = await reindexBackfill(store, live);
      record({
        case: `backfill ${BACKFILL}: memsvc reindex, shard indexes kept live (before)`,
        ...before,
        ratio: round(before.perSecond / rawRate),
      });
    } finally {
      await store.close();
      await database.drop();
    }
  }
  const database = await freshDatabase(engine);
  const store = await openBenchStore(database.url);
  try {
    await seedWithoutVectors(store.connection.db, BACKFILL, tenantOf, ids);
    const after = await reindexBackfill(store, store.reindex);
    record({
      case: `backfill ${BACKFILL}: memsvc reindex, filled shards built at the end`,
      ...after,
      ratio: round(after.perSecond / rawRate),
    });
  } finally {
    await store.close();
    await database.drop();
  }
}

/** @type {Result[]} */
const results = [];
for (const engine of ENGINES) {
  if (engine !== 'postgres' && engine !== 'pglite') throw new Error(`unknown engine "${engine}" in WRITE_BENCH_ENGINES (postgres, pglite)`);
  if (CASES.has('one-tenant')) await writeCase(engine, `1 tenant × ${CLIENTS} clients`, () => 'bench-writes', CLIENTS, results);
  if (CASES.has('tenants')) {
    await writeCase(engine, `${TENANTS} tenants × ${CLIENTS} clients`, (i) => `bench-tenant-${i % TENANTS}`, TENANTS * CLIENTS, results);
  }
  if (CASES.has('backfill')) await backfillCase(engine, results);
}

const report = {
  at: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version },
  writes: WRITES,
  clients: CLIENTS,
  tenants: TENANTS,
  backfill: BACKFILL,
  results,
};
const outFile = writeBenchReport(root, 'write', report);

const header = ['engine', 'case', 'rows', 'seconds', 'rows/s', 'ratio to ceiling', 'failed'];
const lines = [
  header,
  ...results.map((r) => [
    r.engine,
    r.case,
    String(r.writes),
    String(round(r.seconds, 1)),
    String(r.perSecond),
    r.ratio === undefined ? '' : String(r.ratio),
    r.failed === undefined ? '' : `${r.failed}: ${/** @type {string} */ (r.firstError).slice(0, 60)}`,
  ]),
];
printColumns(lines);
console.log(`\nwritten to ${outFile}`);
