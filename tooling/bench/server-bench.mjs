#!/usr/bin/env node
// @ts-check
// memsvc server benchmark. Starts the real `memsvc-server` process (lite profile, streamable
// HTTP, local embedder) once per engine and measures, from a client's side of loopback HTTP:
//   cold start to the first 200 of GET /health, /health latency under 32 concurrent clients,
//   MCP tool latency (ping, create_memory, get_memory), create_memory throughput with 8
//   concurrent clients in one tenant, and the server's RSS idle and after N writes.
// Writes bench/results/server-<timestamp>.json and prints a table.
// Environment: BENCH_WRITES (default 50000), BENCH_ENGINES (default "postgres,pglite").
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  httpGetLoad,
  mcpClient,
  ms,
  percentileSummary,
  postgresDatabase,
  printColumns,
  sentence,
  startServer,
  writeBenchReport,
} from './bench-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WRITES = Number(process.env.BENCH_WRITES ?? 50_000);
const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,pglite').split(',');

/** @param {number | undefined} pid */
function rssMegabytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

// The /health load: 32 keep-alive connections, each with one request in flight (closed loop),
// on raw sockets (see httpGetLoad). node:http's client spent ~90 µs of CPU per request here, as
// much as the server; on two shared cores the latency it reported was mostly its own queueing
// (P95 8–12 ms against 2–2.6 ms with the raw client, at 11,500 vs 31,000 requests/s).
/** @param {string} base */
async function healthLatency(base, concurrency = 32, total = 30_000) {
  const { hostname, port } = new URL(base);
  const load = (/** @type {number} */ requests) =>
    httpGetLoad({ host: hostname, port: Number(port), path: '/health', concurrency, total: requests });
  await load(2_000);
  const { samples, perSecond, failures } = await load(total);
  if (failures > 0) throw new Error(`/health failed ${failures} times under load`);
  return { ...percentileSummary(samples), perSecond };
}

/**
 * @param {number} count
 * @param {(i: number) => Promise<unknown>} run
 */
async function timeCalls(count, run) {
  /** @type {number[]} */
  const samples = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await run(i);
    samples.push(performance.now() - t0);
  }
  return percentileSummary(samples);
}

/**
 * The tool's structured result (JSON, shaped by the tool); a tool error throws.
 * @param {import('./bench-support.mjs').McpClient} client
 * @param {string} name
 * @param {Record<string, unknown>} args
 * @returns {Promise<any>}
 */
async function checked(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent;
}

/** @param {string} engine */
async function benchEngine(engine) {
  const tmp = mkdtempSync(join(tmpdir(), 'memsvc-bench-'));
  const database = engine === 'postgres' ? await postgresDatabase(root) : { url: `pglite://${join(tmp, 'data')}`, drop: async () => {} };
  // The first boot creates the schema (and, for PGlite, the database itself); the cold start
  // is a restart on that database, which is what an operator's restart or a new replica pays.
  // A PGlite first boot runs initdb and keeps the migrated empty database as a template in an
  // empty MEMSVC_CACHE_DIR; a second new database then starts from it (PgliteTemplates).
  const cache = { MEMSVC_CACHE_DIR: join(tmp, 'cache') };
  const stop = async (/** @type {Awaited<ReturnType<typeof startServer>>} */ booted) => {
    booted.child.kill('SIGTERM');
    await new Promise((resolve) => booted.child.once('exit', resolve));
  };
  const firstBoot = await startServer(root, database.url, cache);
  await stop(firstBoot);
  const templateBoot = engine === 'pglite' ? await startServer(root, `pglite://${join(tmp, 'from-template')}`, cache) : undefined;
  if (templateBoot) await stop(templateBoot);
  const server = await startServer(root, database.url);
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const rssIdleMb = rssMegabytes(server.child.pid);
    const health = await healthLatency(server.base);

    const client = await mcpClient(server.base);
    for (let i = 0; i < 50; i++) await checked(client, 'ping', {});
    const ping = await timeCalls(500, () => checked(client, 'ping', {}));
    /** @type {string[]} */
    const created = [];
    const createLatency = await timeCalls(500, async (i) => {
      const result = await checked(client, 'create_memory', {
        userId: 'bench-latency',
        content: `latency probe ${i}: ${sentence()}`,
        type: 'long-term',
      });
      created.push(result.memory.id);
    });
    const getLatency = await timeCalls(500, (i) =>
      checked(client, 'get_memory', { userId: 'bench-latency', memoryId: created[i % created.length] }),
    );
    await client.close();

    // Throughput: 8 concurrent clients in one tenant, distinct contents, until WRITES in total.
    const writers = await Promise.all(Array.from({ length: 8 }, () => mcpClient(server.base)));
    let issued = 0;
    const t0 = performance.now();
    /** @type {number | undefined} */
    let firstTenSecondsWrites;
    await Promise.all(
      writers.map(async (writer) => {
        for (;;) {
          const n = issued++;
          if (n >= WRITES) return;
          await checked(writer, 'create_memory', {
            userId: 'bench-throughput',
            content: sentence(),
            type: 'long-term',
          });
          if (firstTenSecondsWrites === undefined && performance.now() - t0 >= 10_000) firstTenSecondsWrites = n;
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    await Promise.all(writers.map((writer) => writer.close()));
    const rssAfterWritesMb = rssMegabytes(server.child.pid);
    return {
      engine,
      firstBootMs: firstBoot.coldStartMs,
      templateBootMs: templateBoot?.coldStartMs,
      coldStartMs: server.coldStartMs,
      health,
      mcp: { ping, create_memory: createLatency, get_memory: getLatency },
      createThroughput: { clients: 8, writes: WRITES, seconds: Math.round(seconds * 10) / 10, perSecond: Math.round(WRITES / seconds) },
      rssIdleMb,
      rssAfterWritesMb,
    };
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    await database.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv.includes('--check')) {
  // The similarity the generated memories have to each other under the local embedder.
  const { LocalEmbedder } = await import('@memsvc/embeddings');
  const embedder = new LocalEmbedder();
  for (let i = 0; i < 100_000; i++) sentence(); // the stream far into a long run, not just its start
  const vectors = Array.from({ length: 300 }, () => embedder.vectorOf(sentence()));
  /** @type {number[]} */
  const similarities = [];
  for (let i = 0; i < vectors.length; i++)
    for (let j = i + 1; j < vectors.length; j++)
      similarities.push(
        /** @type {number[]} */ (vectors[i]).reduce(
          (sum, v, k) => sum + v * /** @type {number} */ (/** @type {number[]} */ (vectors[j])[k]),
          0,
        ),
      );
  console.log('pairwise cosine', percentileSummary(similarities), 'max', ms(Math.max(...similarities)));
  process.exit(0);
}

/** @type {Awaited<ReturnType<typeof benchEngine>>[]} */
const results = [];
for (const engine of ENGINES) {
  process.stderr.write(`bench: ${engine} …\n`);
  results.push(await benchEngine(engine));
  // Each engine's figures as soon as they exist, so a later failure does not lose them.
  process.stderr.write(`bench: ${engine}: ${JSON.stringify(results.at(-1))}\n`);
}
const report = {
  at: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version },
  writes: WRITES,
  results,
};
const outFile = writeBenchReport(root, 'server', report);

/** @type {[string, (r: (typeof results)[number]) => string | number | undefined][]} */
const rows = [
  ['first boot, new database, to first /health 200 (ms)', (r) => r.firstBootMs],
  ['first boot, new database from the template (ms)', (r) => r.templateBootMs ?? '—'],
  ['cold start (restart) to first /health 200 (ms)', (r) => r.coldStartMs],
  ['/health P50 / P95 / P99 (ms, 32 clients)', (r) => `${r.health.p50} / ${r.health.p95} / ${r.health.p99}`],
  ['/health requests/s (32 clients)', (r) => r.health.perSecond],
  ['ping P50 / P95 (ms)', (r) => `${r.mcp.ping.p50} / ${r.mcp.ping.p95}`],
  ['create_memory P50 / P95 (ms)', (r) => `${r.mcp.create_memory.p50} / ${r.mcp.create_memory.p95}`],
  ['get_memory P50 / P95 (ms)', (r) => `${r.mcp.get_memory.p50} / ${r.mcp.get_memory.p95}`],
  ['create_memory throughput, 8 clients (writes/s)', (r) => r.createThroughput.perSecond],
  ['RSS idle (MB)', (r) => r.rssIdleMb],
  [`RSS after ${WRITES} writes (MB)`, (r) => r.rssAfterWritesMb],
];
const header = ['metric', ...results.map((r) => r.engine)];
const lines = [header, ...rows.map(([label, get]) => [label, ...results.map((r) => String(get(r)))])];
printColumns(lines);
console.log(`\nwritten to ${outFile}`);
