#!/usr/bin/env node
// @ts-check
// What a flood of deeply nested JSON bodies does to the rest of the server (issue 37 #6: one
// 3.8 MB `{"x":[[[…]]]}` to `ping` took /health from 8 ms to 1.45 s). One `memsvc-server` of the
// standard profile on PostgreSQL, open (ALLOW_UNAUTHENTICATED_HTTP) with rate limiting off, so
// nothing but the body handling decides what a flood costs. /health is measured idle, then while
// EDGE_BENCH_FLOODERS loopback connections each post the finding's body to /mcp again and again
// (a new connection each, so a refusal that closes the socket is no advantage), then, as a
// control, while they post a small valid `ping` the same way. Target: P95 of /health under the
// flood within 2× its idle P95. The load generator shares the machine's cores with the server,
// so the control shows what any flood of connections costs here. Bounded: EDGE_BENCH_CALLS /health requests per
// phase (default 300) and EDGE_BENCH_DEADLINE_MS per phase (default 60 s), whichever comes first.
// Prints both P95s and writes bench/results/edge-<timestamp>.json.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ms, percentileSummary, postgresDatabase, startServer, writeBenchReport } from './bench-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CALLS = Number(process.env.EDGE_BENCH_CALLS ?? 300);
const FLOODERS = Number(process.env.EDGE_BENCH_FLOODERS ?? 4);
const DEADLINE_MS = Number(process.env.EDGE_BENCH_DEADLINE_MS ?? 60_000);
const BODY_BYTES = 3_800_000;

// The finding's body: a ping whose params hold one array nested about 1.9 million deep.
const head = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":';
const depth = Math.floor((BODY_BYTES - head.length - 2) / 2);
const nestedBody = Buffer.from(`${head}${'['.repeat(depth)}${']'.repeat(depth)}}}`);
// The control: the same flood of ordinary small calls, so what is left is what any traffic costs.
const pingBody = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}');

/**
 * One POST of a body on a fresh connection; resolves with the status once the server closes it.
 * @param {number} port
 * @param {Buffer} body
 * @returns {Promise<number>}
 */
function post(port, body) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let status = 0;
    socket.on('data', (chunk) => {
      if (status === 0) status = Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1', 0, 16))?.[1] ?? -1);
    });
    socket.on('error', () => resolve(status || -1));
    socket.on('close', () => resolve(status));
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Accept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    socket.write(body);
  });
}

/**
 * Sequential GET /health until `CALLS` answers or the deadline: the latency of each, in ms.
 * @param {string} base
 */
async function healthLatencies(base) {
  /** @type {number[]} */
  const samples = [];
  const deadline = performance.now() + DEADLINE_MS;
  while (samples.length < CALLS && performance.now() < deadline) {
    const started = performance.now();
    const response = await fetch(`${base}/health`);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`/health answered ${response.status}`);
    samples.push(performance.now() - started);
  }
  return samples;
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux).
 * @param {number | undefined} pid
 */
function cpuMs(pid) {
  const fields = /** @type {string} */ (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, at 100 ticks a second
}

const database = await postgresDatabase(root);
/** @type {Awaited<ReturnType<typeof startServer>> | undefined} */
let server;
try {
  server = await startServer(root, database.url, { DEPLOYMENT_PROFILE: 'standard', ALLOW_UNAUTHENTICATED_HTTP: 'true' });
  const port = Number(new URL(server.base).port);
  await healthLatencies(server.base); // warm-up
  const idle = percentileSummary(await healthLatencies(server.base));

  /** /health latencies while FLOODERS connections post `body` again and again, and the flood's answers by status. */
  const underFlood = async (/** @type {Buffer} */ body) => {
    let flooding = true;
    /** @type {Record<number, number>} */
    const statuses = {};
    const flooder = async () => {
      while (flooding) {
        const status = await post(port, body);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    };
    const cpuBefore = cpuMs(/** @type {NonNullable<typeof server>} */ (server).child.pid);
    const flooders = Array.from({ length: FLOODERS }, flooder);
    // Let the first bodies arrive before measuring, so the flood is under way.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const samples = await healthLatencies(/** @type {NonNullable<typeof server>} */ (server).base);
    flooding = false;
    await Promise.all(flooders);
    const floodRequests = Object.values(statuses).reduce((sum, count) => sum + count, 0);
    // The server's own CPU per flood request: what the flood costs it, apart from the load generator.
    const serverCpuMsPerRequest = ms(
      (cpuMs(/** @type {NonNullable<typeof server>} */ (server).child.pid) - cpuBefore) / Math.max(1, floodRequests),
    );
    return { ...percentileSummary(samples), statuses, serverCpuMsPerRequest };
  };
  const flood = await underFlood(nestedBody);
  const control = await underFlood(pingBody);

  const ratio = ms(flood.p95 / idle.p95);
  console.log(`/health under a flood of ${FLOODERS} × ${(nestedBody.length / 1e6).toFixed(1)} MB nested bodies to /mcp    P50 / P95 (ms)`);
  console.log(`  idle                     ${idle.p50} / ${idle.p95}  (${idle.n} calls)`);
  console.log(
    `  nested-body flood        ${flood.p50} / ${flood.p95}  (${flood.n} calls; flood answers ${JSON.stringify(flood.statuses)}; server CPU ${flood.serverCpuMsPerRequest} ms each)`,
  );
  console.log(
    `  control: small-ping flood ${control.p50} / ${control.p95}  (${control.n} calls; flood answers ${JSON.stringify(control.statuses)}; server CPU ${control.serverCpuMsPerRequest} ms each)`,
  );
  console.log(`  P95 ratio to idle ${ratio}× (target ≤ 2×); to the control flood ${ms(flood.p95 / control.p95)}×`);
  const file = writeBenchReport(root, 'edge', {
    at: new Date().toISOString(),
    bodyBytes: nestedBody.length,
    flooders: FLOODERS,
    idle,
    flood,
    control,
    p95Ratio: ratio,
    p95RatioToControl: ms(flood.p95 / control.p95),
  });
  console.log(`written to ${file}`);
} finally {
  await server?.stop();
  await database.drop();
}
