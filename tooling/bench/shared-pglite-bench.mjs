#!/usr/bin/env node
// @ts-check
// One embedded memory for many processes (`pnpm bench`; issue 40): memsvc-server over stdio, as
// Claude Desktop, Claude Code and Cursor start it, on one `pglite://` directory.
//  1. Start: spawn to the answer of `initialize` (the MCP SDK's stdio client) for a server that
//     opens a new directory, one that opens an existing directory nobody serves, and one that
//     attaches to a running host; SHARED_STARTS (default 3) of each, median and worst.
//  2. What attaching costs: `create_memory` and `recall` P50/P95 through the host's own stdio
//     server and through an attached one, one client each, then 8 clients across 4 processes
//     (the host and 3 attached, 2 clients each), in one run.
// Environment: SHARED_CALLS (calls per row, default 400), SHARED_STARTS.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { freePort, percentileSummary, printColumns, sentence, writeBenchReport } from './bench-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const server = join(root, 'apps', 'server', 'dist', 'memsvc-server.js');
const CALLS = Number(process.env.SHARED_CALLS ?? 400);
const STARTS = Number(process.env.SHARED_STARTS ?? 3);

/** @typedef {import('./bench-support.mjs').McpClient} McpClient */

/**
 * A stdio memsvc-server on `directory`, connected: {client, startMs, close()}.
 * @param {string} directory
 */
async function stdioServer(directory) {
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [server],
    env: {
      // Unset variables stay unset: the transport passes the object on as the child's environment.
      PATH: /** @type {string} */ (process.env.PATH),
      HOME: /** @type {string} */ (process.env.HOME),
      DATABASE_URL: `pglite://${directory}`,
      DEPLOYMENT_PROFILE: 'lite',
      EMBEDDING_PROVIDER: 'local',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
    },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'shared-pglite-bench', version: '0.0.0' });
  await client.connect(transport);
  return { client, startMs: performance.now() - started, close: () => client.close() };
}

/**
 * @param {McpClient} client
 * @param {string} name
 * @param {Record<string, unknown>} args
 */
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent;
}

const summary = (/** @type {number[]} */ samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: Math.round(/** @type {number} */ (sorted[Math.floor(sorted.length / 2)])),
    worst: Math.round(/** @type {number} */ (sorted.at(-1))),
  };
};

async function starts() {
  /** @type {{ 'new directory': number[], 'existing directory, no host': number[], 'attach to a running host': number[] }} */
  const rows = { 'new directory': [], 'existing directory, no host': [], 'attach to a running host': [] };
  for (let i = 0; i < STARTS; i++) {
    const directory = join(mkdtempSync(join(tmpdir(), 'memsvc-shared-')), 'data');
    const fresh = await stdioServer(directory);
    rows['new directory'].push(fresh.startMs);
    const attached = await stdioServer(directory);
    rows['attach to a running host'].push(attached.startMs);
    await attached.close();
    await fresh.close();
    const again = await stdioServer(directory);
    rows['existing directory, no host'].push(again.startMs);
    await again.close();
    rmSync(dirname(directory), { recursive: true, force: true });
  }
  return Object.entries(rows).map(([start, samples]) => ({ start, ...summary(samples) }));
}

/**
 * `calls` calls of `name` spread over `clients`, each back to back: latencies.
 * @param {McpClient[]} clients
 * @param {string} name
 * @param {(i: number) => Record<string, unknown>} argsOf
 * @param {number} calls
 */
async function load(clients, name, argsOf, calls) {
  /** @type {number[]} */
  const took = [];
  await Promise.all(
    clients.map(async (client, c) => {
      for (let i = c; i < calls; i += clients.length) {
        const began = performance.now();
        await call(client, name, argsOf(i));
        took.push(performance.now() - began);
      }
    }),
  );
  return percentileSummary(took);
}

async function attachCost() {
  const directory = join(mkdtempSync(join(tmpdir(), 'memsvc-shared-')), 'data');
  const processes = [await stdioServer(directory)];
  for (let i = 0; i < 3; i++) processes.push(await stdioServer(directory));
  // A second client per process: each stdio server serves the one client that started it.
  const second = [];
  for (let i = 0; i < 4; i++) second.push(await stdioServer(directory));
  const [host, attached] = /** @type {[Awaited<ReturnType<typeof stdioServer>>, Awaited<ReturnType<typeof stdioServer>>]} */ (processes);
  const write = (/** @type {number} */ i) => ({ content: `${sentence()} ${i}`, type: 'long-term' });
  const ask = (/** @type {number} */ i) => ({ query: sentence().split(' ').slice(0, 4).join(' '), limit: 10 + (i % 2) });
  // Enough memories for recall to rank.
  await load([host.client, attached.client], 'create_memory', write, 600);
  const rows = [];
  for (const [label, clients] of /** @type {[string, McpClient[]][]} */ ([
    ['host process, 1 client', [host.client]],
    ['attached process, 1 client', [attached.client]],
    ['8 clients across 8 processes', [...processes, ...second].map((p) => p.client)],
  ])) {
    rows.push({ through: label, tool: 'create_memory', ...(await load(clients, 'create_memory', write, CALLS)) });
    rows.push({ through: label, tool: 'recall', ...(await load(clients, 'recall', ask, CALLS)) });
  }
  for (const p of [...second, ...processes.reverse()]) await p.close();
  rmSync(dirname(directory), { recursive: true, force: true });
  return rows;
}

console.log(
  `shared embedded memory: memsvc-server over stdio on one pglite:// directory (${STARTS} starts of each kind, ${CALLS} calls per row)`,
);
const startRows = await starts();
printColumns([
  ['start', 'spawn → initialize answered, median ms', 'worst ms'],
  ...startRows.map((row) => [row.start, String(row.median), String(row.worst)]),
]);
console.log('');
const costRows = await attachCost();
printColumns([
  ['through', 'tool', 'P50 ms', 'P95 ms', 'P99 ms'],
  ...costRows.map((row) => [row.through, row.tool, String(row.p50), String(row.p95), String(row.p99)]),
]);
const file = writeBenchReport(root, 'shared-pglite-bench', {
  at: new Date().toISOString(),
  calls: CALLS,
  starts: startRows,
  cost: costRows,
});
console.log(`\nreport: ${file}`);
