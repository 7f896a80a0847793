#!/usr/bin/env node
// @ts-check
// What the rate limiter and the tracer cost a call (issue 16: the limiter adds at most 0.5 ms at
// P50; tracing, when on, is measured; when off, nothing of OpenTelemetry loads). Three
// `memsvc-server` processes of the standard profile on one PostgreSQL database, all with
// AUTH_REQUIRED=true and the same per-agent key: plain; with RATE_LIMIT_ENABLED=true (limits
// far above the load, so every call is admitted and counted); with OTEL_EXPORTER_OTLP_ENDPOINT
// pointing at a loopback collector that accepts and discards. Each reads the same memory with
// `get_memory` in rotating rounds; cold start (spawn → /health 200) is measured for each kind
// over several spawns. Prints P50 / P95 and writes bench/results/guard-<timestamp>.json.
// Environment: GUARD_BENCH_CALLS (per round, default 500), GUARD_BENCH_ROUNDS (default 4),
// GUARD_BENCH_STARTS (cold starts per kind, default 5).
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiKey, mcpClient, ms, percentileSummary, postgresDatabase, startServer } from './bench-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CALLS = Number(process.env.GUARD_BENCH_CALLS ?? 500);
const ROUNDS = Number(process.env.GUARD_BENCH_ROUNDS ?? 4);
const STARTS = Number(process.env.GUARD_BENCH_STARTS ?? 5);
const USER = 'bench-user';

// A collector that takes every export and answers 200, so the exporter does real work.
let spansReceived = 0;
const collector = createServer((request, response) => {
  let size = 0;
  request.on('data', (/** @type {Buffer} */ chunk) => {
    size += chunk.length;
  });
  request.on('end', () => {
    if (size > 0) spansReceived++;
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await /** @type {Promise<void>} */ (new Promise((resolve) => collector.listen(0, '127.0.0.1', resolve)));
const collectorUrl = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (collector.address()).port}`;

const database = await postgresDatabase(root);
const servers = [];
try {
  const key = createApiKey(root, database.url, USER, 'guard bench');
  const common = { DATABASE_URL: database.url, DEPLOYMENT_PROFILE: 'standard', AUTH_REQUIRED: 'true', JWT_SECRET: 'g'.repeat(48) };
  const kinds = {
    plain: common,
    'rate limited': { ...common, RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_USER_RPM: '100000000', RATE_LIMIT_WINDOW_SEC: '60' },
    traced: { ...common, OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl },
  };
  /** @typedef {keyof typeof kinds} Kind */
  const names = /** @type {Kind[]} */ (Object.keys(kinds));

  const coldStarts = /** @type {Record<Kind, number[]>} */ (Object.fromEntries(names.map((name) => [name, /** @type {number[]} */ ([])])));
  for (let i = 0; i < STARTS; i++) {
    for (const name of names) {
      const server = await startServer(root, database.url, kinds[name]);
      coldStarts[name].push(server.coldStartMs);
      await server.stop();
    }
  }

  const clients = /** @type {Record<Kind, import('./bench-support.mjs').McpClient>} */ ({});
  for (const name of names) {
    const server = await startServer(root, database.url, kinds[name]);
    servers.push(server);
    clients[name] = await mcpClient(server.base, { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  }
  const stored = await clients.plain.callTool({
    name: 'create_memory',
    arguments: { content: 'The guard bench reads this memory', type: 'long-term' },
  });
  const memoryId = /** @type {{ memory: { id: string } }} */ (stored.structuredContent).memory.id;
  const samples = /** @type {Record<Kind, number[]>} */ (Object.fromEntries(names.map((name) => [name, /** @type {number[]} */ ([])])));
  const round = async (/** @type {Kind} */ name) => {
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      const result = await clients[name].callTool({ name: 'get_memory', arguments: { memoryId } });
      samples[name].push(performance.now() - started);
      if (result.isError) throw new Error(`get_memory failed (${name}): ${JSON.stringify(result.structuredContent)}`);
    }
  };
  for (const name of names) await round(name);
  for (const name of names) samples[name].length = 0;
  for (let r = 0; r < ROUNDS; r++) for (let i = 0; i < names.length; i++) await round(/** @type {Kind} */ (names[(r + i) % names.length]));

  /** @typedef {import('./bench-support.mjs').PercentileSummary} PercentileSummary */
  const summary = /** @type {Record<Kind, { getMemory: PercentileSummary, coldStartMs: PercentileSummary }>} */ (
    Object.fromEntries(
      names.map((name) => [name, { getMemory: percentileSummary(samples[name]), coldStartMs: percentileSummary(coldStarts[name]) }]),
    )
  );
  const plain = summary.plain.getMemory.p50;
  console.log('get_memory, PostgreSQL, standard profile, AUTH_REQUIRED=true   P50 / P95 (ms)   cold start P50 (ms)');
  for (const name of names) {
    const { getMemory, coldStartMs } = summary[name];
    const cost = name === 'plain' ? '' : `   (+${ms(getMemory.p50 - plain)} ms at P50)`;
    console.log(`  ${name.padEnd(14)} ${getMemory.p50} / ${getMemory.p95}   ${coldStartMs.p50}${cost}`);
  }
  console.log(`  the collector received ${spansReceived} exports`);
  for (const client of Object.values(clients)) await client.close();
  const out = join(root, 'bench', 'results');
  mkdirSync(out, { recursive: true });
  const file = join(out, `guard-${new Date().toISOString().replaceAll(':', '-')}.json`);
  writeFileSync(file, JSON.stringify({ calls: CALLS, rounds: ROUNDS, starts: STARTS, exports: spansReceived, ...summary }, null, 2));
  console.log(`written to ${file}`);
} finally {
  for (const server of servers) await server.stop();
  await database.drop();
  collector.close();
}
