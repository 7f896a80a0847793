#!/usr/bin/env node
// @ts-check
// memsvc reindex throughput benchmark (`pnpm bench` runs it after the recall benchmark). For each
// engine: opens the database in-process (which migrates it, types the vector column and builds
// the HNSW index), seeds TOTAL memories WITHOUT vectors with batched SQL, starts the real server
// (lite profile, streamable HTTP, scheduled jobs off) and measures, in memories per second:
//   (a) backfill: reindex_memories, batchSize 1000, over rows lacking vectors, HNSW index live;
//   (b) regenerate unchanged: reindex_memories with reuseExistingEmbeddings false (every vector
//       computed again; equal ones are not rewritten);
//   (c) queued job: queue_reindex_memories (regenerate), polled every 100 ms, queue → completed
//       (includes the lite runner's up-to-1 s poll before it claims the job);
//   (d) recreate + regenerate: reindex_memories {recreate, reuseExistingEmbeddings false},
//       including the HNSW index drop and rebuild;
//   (e) the CLI, apps/cli/dist/memsvc-reindex.js --regenerate and --recreate --regenerate, with
//       the server stopped (PGlite allows one process per directory);
//   (f) on PostgreSQL, EMBEDDING_PROVIDER=ollama against a loopback Ollama-format server that
//       answers each /api/embed request after 5 ms (768 dims, fresh database): backfill and
//       regenerate.
// Writes bench/results/reindex-<timestamp>.json and prints a table.
// Environment: REINDEX_ENGINES (default "postgres,pglite"), REINDEX_TOTAL (default 50000, on
// PostgreSQL and for the Ollama case), REINDEX_PGLITE_TOTAL (default 10000),
// REINDEX_OLLAMA_DELAY_MS (default 5), REINDEX_OLLAMA (default "1"; "0" leaves the case out).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore, UuidV7Generator } from '@memsvc/store-pg';
import { sql } from 'kysely';
import pg from 'pg';
import {
  mcpClient,
  nodeHttpFetch,
  postgresDatabase,
  printColumns,
  seedWithoutVectors,
  startServer,
  writeBenchReport,
} from './bench-support.mjs';
import { startFakeOllama } from './fake-ollama.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * @typedef {{ engine: string, embedder: string, total: number }} Context
 * @typedef {{ processed?: number, indexed?: number, skipped?: number, failed?: number, elapsedSeconds?: number }} Counts
 * @typedef {{
 *   engine: string, embedder: string, mode: string, memories: number, seconds?: number, perSecond?: number,
 *   summary?: Counts, problems?: string[], error?: string, skipped?: string, vectorsRewritten?: number,
 *   jobRunSeconds?: number, providerRequests?: number, hnswLive?: boolean
 * }} Entry
 * @typedef {{ model: string, env: Record<string, string> }} EmbedderSetup
 */

const ENGINES = (process.env.REINDEX_ENGINES ?? 'postgres,pglite').split(',');
/** @type {Record<string, number>} */
const TOTALS = {
  postgres: Number(process.env.REINDEX_TOTAL ?? 50_000),
  pglite: Number(process.env.REINDEX_PGLITE_TOTAL ?? 10_000),
};
const OLLAMA = process.env.REINDEX_OLLAMA !== '0';
const OLLAMA_DELAY_MS = Number(process.env.REINDEX_OLLAMA_DELAY_MS ?? 5);
const TARGET_PER_SECOND = 3000;
const ADMIN_TOKEN = 'reindex-bench-admin-token';
const CLI = join(root, 'apps', 'cli', 'dist', 'memsvc-reindex.js');
// A tool call may take minutes (PGlite, a slow provider); the SDK's default timeout is 60 s.
// And the server answers a call when it is done, so the client's fetch must not give up waiting
// for response headers (Node's built-in fetch does after 300 s).
const CALL_OPTIONS = { timeout: 3_600_000 };
const LONG_CALLS = { fetch: nodeHttpFetch };
// Only the reindex: the scheduled jobs (sweep, consolidation, decay, auth-store sweep) stay off.
const QUIET_JOBS = {
  STM_SWEEP_INTERVAL_MS: '0',
  STM_CONSOLIDATION_INTERVAL_MS: '0',
  AUTH_STORE_SWEEP_INTERVAL_MS: '0',
  MEMORY_DECAY_INTERVAL_MS: '0',
};
const EMBEDDERS = {
  local: { model: 'memsvc-local-v1', env: { EMBEDDING_PROVIDER: 'local' } },
  ollama: (/** @type {string} */ url) => ({
    model: 'nomic-embed-text',
    env: { EMBEDDING_PROVIDER: 'ollama', OLLAMA_URL: url, EMBEDDING_MODEL: 'nomic-embed-text' },
  }),
};
const ids = new UuidV7Generator();
const round = (/** @type {number} */ value, places = 2) => Math.round(value * 10 ** places) / 10 ** places;
const log = (/** @type {string} */ message) => process.stderr.write(`reindex bench: ${message}\n`);

/**
 * Opens (and migrates) the database with the model's vector column and HNSW index, then seeds rows without vectors.
 * @param {string} databaseUrl
 * @param {string} model
 * @param {number} total
 */
async function seed(databaseUrl, model, total) {
  const store = await openStore({ database: databaseUrl, vector: { model } });
  try {
    const db = store.connection.db;
    const started = performance.now();
    await seedWithoutVectors(db, total, (i) => `tenant-${i % 151}`, ids);
    const { rows } = await sql`SELECT
        (SELECT count(*)::int FROM memories WHERE embedding IS NULL) AS unembedded,
        EXISTS (SELECT 1 FROM pg_indexes WHERE indexname LIKE 'memories_embedding_hnsw_s%') AS hnsw`.execute(db);
    const counted = /** @type {{ unembedded: number, hnsw: boolean }} */ (rows[0]);
    if (counted.unembedded !== total) throw new Error(`seeded ${counted.unembedded} rows without vectors, expected ${total}`);
    return { seconds: round((performance.now() - started) / 1000), hnswLive: counted.hnsw };
  } finally {
    await store.close();
  }
}

/**
 * The tool's structured result (JSON, shaped by the tool); a tool error throws.
 * @param {import('./bench-support.mjs').McpClient} client
 * @param {string} name
 * @param {Record<string, unknown>} args
 * @returns {Promise<any>}
 */
async function tool(client, name, args) {
  const result = await client.callTool({ name, arguments: { adminToken: ADMIN_TOKEN, ...args } }, undefined, CALL_OPTIONS);
  if (result.isError) {
    const detail = result.structuredContent ?? result.content;
    throw new Error(`${name} failed: ${JSON.stringify(detail)}`);
  }
  return result.structuredContent;
}

/**
 * Rows whose vector was (re)written at or after `since` — PostgreSQL only (the bench can read it while the server runs).
 * @param {string} databaseUrl
 * @param {Date} since
 * @returns {Promise<number | undefined>}
 */
async function rewrittenSince(databaseUrl, since) {
  if (!databaseUrl.startsWith('postgres')) return undefined;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT count(*)::int AS n FROM memories WHERE embedded_at >= $1', [since]);
    return rows[0].n;
  } finally {
    await client.end();
  }
}

/**
 * @param {Context} context
 * @param {string} mode
 * @param {number} seconds
 * @param {Counts | undefined} summary
 * @param {Partial<Entry>} [extra]
 */
function measurement(context, mode, seconds, summary, extra = {}) {
  /** @type {Entry} */
  const entry = {
    engine: context.engine,
    embedder: context.embedder,
    mode,
    memories: context.total,
    seconds: round(seconds),
    perSecond: Math.round(context.total / seconds),
    summary,
    ...extra,
  };
  /** @type {string[]} */
  const problems = [];
  if (summary) {
    if (summary.processed !== undefined && summary.processed !== context.total)
      problems.push(`processed ${summary.processed} of ${context.total}`);
    if (summary.failed) problems.push(`${summary.failed} failed`);
  }
  if (problems.length > 0) entry.problems = problems;
  // Each figure as soon as it exists, so a later failure does not lose it.
  log(`${context.engine}/${context.embedder}: ${mode}: ${JSON.stringify(entry)}`);
  return entry;
}

/**
 * A failed case is recorded with its error and the run goes on to the next case.
 * @param {Entry[]} results
 * @param {Context} context
 * @param {string} mode
 * @param {() => Promise<Entry | undefined>} run
 */
async function attempt(results, context, mode, run) {
  try {
    const entry = await run();
    if (entry) results.push(entry);
  } catch (/** @type {any} */ error) {
    log(`${context.engine}/${context.embedder}: ${mode} FAILED: ${error.stack ?? error}`);
    results.push({
      engine: context.engine,
      embedder: context.embedder,
      mode,
      memories: context.total,
      error: String(error.message ?? error),
    });
  }
}

/**
 * @param {import('./bench-support.mjs').McpClient} client
 * @param {Context} context
 * @param {string} mode
 * @param {Record<string, unknown>} args
 * @param {string} databaseUrl
 */
async function synchronous(client, context, mode, args, databaseUrl) {
  const since = new Date();
  const t0 = performance.now();
  const summary = await tool(client, 'reindex_memories', { batchSize: 1000, ...args });
  const seconds = (performance.now() - t0) / 1000;
  const rewritten = await rewrittenSince(databaseUrl, since);
  return measurement(context, mode, seconds, summary, rewritten === undefined ? {} : { vectorsRewritten: rewritten });
}

/**
 * @param {import('./bench-support.mjs').McpClient} client
 * @param {Context} context
 * @param {string} databaseUrl
 */
async function queued(client, context, databaseUrl) {
  const since = new Date();
  const t0 = performance.now();
  const { jobId } = await tool(client, 'queue_reindex_memories', { batchSize: 1000, reuseExistingEmbeddings: false });
  let status;
  for (;;) {
    status = await tool(client, 'get_reindex_status', { jobId });
    if (['completed', 'failed', 'cancelled'].includes(status.state)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = (performance.now() - t0) / 1000;
  if (status.state !== 'completed') throw new Error(`reindex job ${jobId} ended ${status.state}: ${status.error}`);
  const runSeconds =
    status.startedAt && status.finishedAt ? (Date.parse(status.finishedAt) - Date.parse(status.startedAt)) / 1000 : undefined;
  const rewritten = await rewrittenSince(databaseUrl, since);
  return measurement(context, 'queued job, regenerate (queue → completed)', seconds, status.progress, {
    jobRunSeconds: runSeconds,
    ...(rewritten === undefined ? {} : { vectorsRewritten: rewritten }),
  });
}

/**
 * Runs the reindex CLI to its end; its JSON summary is the last JSON object on stdout.
 * @param {string} databaseUrl
 * @param {Record<string, string>} env
 * @param {string[]} flags
 * @returns {Promise<{ seconds: number, summary: any, stderr: string }>}
 */
function runCli(databaseUrl, env, flags) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, '--batch-size', '1000', ...flags, '--json'], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const seconds = (performance.now() - t0) / 1000;
      if (code !== 0) {
        reject(new Error(`memsvc-reindex ${flags.join(' ')} exited with ${code}: ${(stderr || stdout).trim().slice(0, 2000)}`));
        return;
      }
      resolve({ seconds, summary: parseJsonSummary(stdout), stderr: stderr.trim() });
    });
  });
}

/** @param {string} stdout */
function parseJsonSummary(stdout) {
  try {
    return JSON.parse(stdout);
  } catch {
    const lines = stdout.trim().split('\n').reverse();
    for (const line of lines) {
      try {
        return JSON.parse(line);
      } catch {
        // not the summary
      }
    }
    return { unparsed: stdout.trim().slice(0, 2000) };
  }
}

/**
 * @param {Entry[]} results
 * @param {Context} context
 * @param {string} databaseUrl
 * @param {Record<string, string>} env
 */
async function cliCases(results, context, databaseUrl, env) {
  if (!existsSync(CLI)) {
    log(`${context.engine}: CLI cases skipped: ${CLI} does not exist (not built yet)`);
    results.push({ engine: context.engine, embedder: context.embedder, mode: 'CLI', memories: context.total, skipped: `${CLI} not found` });
    return;
  }
  for (const flags of [['--regenerate'], ['--recreate', '--regenerate']]) {
    await attempt(results, context, `CLI ${flags.join(' ')}`, async () => {
      const since = new Date();
      const { seconds, summary, stderr } = await runCli(databaseUrl, env, flags);
      if (stderr) log(`${context.engine}: CLI ${flags.join(' ')} stderr: ${stderr.slice(0, 2000)}`);
      const rewritten = await rewrittenSince(databaseUrl, since);
      // The CLI's summary may nest the counts; compare processed only when it is there.
      const counts = summary?.processed !== undefined ? summary : (summary?.summary ?? summary?.result ?? summary);
      return measurement(
        context,
        `CLI ${flags.join(' ')}`,
        seconds,
        counts,
        rewritten === undefined ? {} : { vectorsRewritten: rewritten },
      );
    });
  }
}

/** @param {EmbedderSetup} embedder */
function serverEnv(embedder) {
  return { ...QUIET_JOBS, ...embedder.env, MCP_ADMIN_TOKEN: ADMIN_TOKEN };
}

/**
 * The `local` embedder on one engine: (a)–(e).
 * @param {string} engine
 * @param {Entry[]} results
 */
async function benchLocal(engine, results) {
  const total = /** @type {number} */ (TOTALS[engine]);
  const context = { engine, embedder: 'local', total };
  const tmp = mkdtempSync(join(tmpdir(), 'memsvc-reindex-'));
  const database = engine === 'postgres' ? await postgresDatabase(root) : { url: `pglite://${join(tmp, 'data')}`, drop: async () => {} };
  try {
    log(`${engine}/local: seeding ${total} memories without vectors …`);
    const seeded = await seed(database.url, EMBEDDERS.local.model, total);
    log(`${engine}/local: seeded in ${seeded.seconds} s; HNSW index live: ${seeded.hnswLive}`);
    const env = serverEnv(EMBEDDERS.local);
    const server = await startServer(root, database.url, env);
    try {
      const client = await mcpClient(server.base, LONG_CALLS);
      await attempt(results, context, 'backfill (sync tool)', async () => ({
        ...(await synchronous(client, context, 'backfill (sync tool)', {}, database.url)),
        hnswLive: seeded.hnswLive,
      }));
      await attempt(results, context, 'regenerate unchanged (sync tool)', () =>
        synchronous(client, context, 'regenerate unchanged (sync tool)', { reuseExistingEmbeddings: false }, database.url),
      );
      await attempt(results, context, 'queued job, regenerate (queue → completed)', () => queued(client, context, database.url));
      await attempt(results, context, 'recreate + regenerate (sync tool)', () =>
        synchronous(client, context, 'recreate + regenerate (sync tool)', { recreate: true, reuseExistingEmbeddings: false }, database.url),
      );
      await client.close();
    } finally {
      await server.stop();
    }
    // With the server stopped: PGlite allows one process per directory.
    await cliCases(results, context, database.url, env);
  } finally {
    await database.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The Ollama-format provider on PostgreSQL: (f) backfill and regenerate, in a fresh database (768 dims).
 * @param {Entry[]} results
 */
async function benchOllama(results) {
  const total = /** @type {number} */ (TOTALS.postgres);
  const context = { engine: 'postgres', embedder: `ollama (fake, ${OLLAMA_DELAY_MS} ms/request)`, total };
  const fake = await startFakeOllama({ dimensions: 768, delayMs: OLLAMA_DELAY_MS });
  const database = await postgresDatabase(root);
  try {
    const embedder = EMBEDDERS.ollama(fake.url);
    log(`postgres/ollama: seeding ${total} memories without vectors …`);
    const seeded = await seed(database.url, embedder.model, total);
    log(`postgres/ollama: seeded in ${seeded.seconds} s; HNSW index live: ${seeded.hnswLive}`);
    const server = await startServer(root, database.url, serverEnv(embedder));
    try {
      const client = await mcpClient(server.base, LONG_CALLS);
      for (const [mode, args] of /** @type {[string, Record<string, unknown>][]} */ ([
        ['backfill (sync tool)', {}],
        ['regenerate unchanged (sync tool)', { reuseExistingEmbeddings: false }],
      ])) {
        await attempt(results, context, mode, async () => {
          const requestsBefore = fake.requests();
          const entry = await synchronous(client, context, mode, args, database.url);
          return { ...entry, providerRequests: fake.requests() - requestsBefore };
        });
      }
      await client.close();
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
    await fake.stop();
  }
}

/** @type {Entry[]} */
const results = [];
for (const engine of ENGINES) {
  if (!(engine in TOTALS)) throw new Error(`unknown engine "${engine}" in REINDEX_ENGINES (postgres, pglite)`);
  await benchLocal(engine, results);
}
if (OLLAMA && ENGINES.includes('postgres')) await benchOllama(results);

const report = {
  at: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version },
  totals: TOTALS,
  batchSize: 1000,
  ollamaDelayMs: OLLAMA_DELAY_MS,
  targetPerSecond: { local: { postgres: TARGET_PER_SECOND } },
  results,
};
const outFile = writeBenchReport(root, 'reindex', report);

const notes = (/** @type {Entry} */ r) => {
  if (r.error) return `ERROR: ${r.error.slice(0, 160)}`;
  if (r.skipped) return `skipped: ${r.skipped}`;
  /** @type {string[]} */
  const parts = [];
  const s = r.summary;
  if (s && s.processed !== undefined)
    parts.push(`processed ${s.processed}, indexed ${s.indexed}, skipped ${s.skipped}, failed ${s.failed}`);
  else if (s) parts.push(`summary ${JSON.stringify(s).slice(0, 120)}`);
  if (r.vectorsRewritten !== undefined) parts.push(`rewritten ${r.vectorsRewritten}`);
  if (r.jobRunSeconds !== undefined) parts.push(`job ran ${round(r.jobRunSeconds)} s`);
  if (s?.elapsedSeconds !== undefined) parts.push(`CLI's own elapsed ${s.elapsedSeconds} s`);
  if (r.providerRequests !== undefined) parts.push(`${r.providerRequests} provider requests`);
  if (r.problems) parts.push(`PROBLEM: ${r.problems.join('; ')}`);
  return parts.join('; ');
};
const header = ['engine', 'embedder', 'mode', 'memories', 'seconds', 'memories/s', 'notes'];
const lines = [
  header,
  ...results.map((r) => [r.engine, r.embedder, r.mode, String(r.memories), String(r.seconds ?? '—'), String(r.perSecond ?? '—'), notes(r)]),
];
printColumns(lines);
const target = results.filter(
  (r) => r.engine === 'postgres' && r.embedder === 'local' && r.perSecond !== undefined && !r.mode.startsWith('CLI'),
);
if (target.length > 0) {
  console.log(
    `\ntarget ≥ ${TARGET_PER_SECOND} memories/s with local on PostgreSQL: ${target
      .map((r) => `${r.mode} ${/** @type {number} */ (r.perSecond) >= TARGET_PER_SECOND ? 'met' : 'NOT met'} (${r.perSecond})`)
      .join('; ')}`,
  );
}
console.log(`\nwritten to ${outFile}`);
