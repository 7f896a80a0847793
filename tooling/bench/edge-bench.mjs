#!/usr/bin/env node
// What a flood of deeply nested JSON bodies does to the rest of the server (issue 37 #6: one
// 3.8 MB `{"x":[[[…]]]}` to `ping` took /health from 8 ms to 1.45 s). One `memsvc-server` of the
// standard profile on PostgreSQL, open (ALLOW_UNAUTHENTICATED_HTTP) with rate limiting off, so
// nothing but the body handling decides what a flood costs. /health is measured idle, then while
// EDGE_BENCH_FLOODERS loopback connections each post the finding's body to /mcp again and again
// (a new connection each, so a refusal that closes the socket is no advantage). Target: P95 of
// /health under the flood within 2× its idle P95. Bounded: EDGE_BENCH_CALLS /health requests per
// phase (default 300) and EDGE_BENCH_DEADLINE_MS per phase (default 60 s), whichever comes first.
// Prints both P95s and writes bench/results/edge-<timestamp>.json.
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
const body = Buffer.from(`${head}${'['.repeat(depth)}${']'.repeat(depth)}}}`);

/** One POST of the body on a fresh connection; resolves with the status once the server closes it. */
function postNested(port) {
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

/** Sequential GET /health until `CALLS` answers or the deadline: the latency of each, in ms. */
async function healthLatencies(base) {
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

const database = await postgresDatabase(root);
let server;
try {
  server = await startServer(root, database.url, { DEPLOYMENT_PROFILE: 'standard', ALLOW_UNAUTHENTICATED_HTTP: 'true' });
  const port = Number(new URL(server.base).port);
  await healthLatencies(server.base); // warm-up
  const idle = percentileSummary(await healthLatencies(server.base));

  let flooding = true;
  const statuses = {};
  const flooder = async () => {
    while (flooding) {
      const status = await postNested(port);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  const flooders = Array.from({ length: FLOODERS }, flooder);
  // Let the first bodies arrive before measuring, so the flood is under way.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const floodSamples = await healthLatencies(server.base);
  flooding = false;
  await Promise.all(flooders);
  const flood = percentileSummary(floodSamples);

  const ratio = ms(flood.p95 / idle.p95);
  console.log(`/health under a flood of ${FLOODERS} × ${(body.length / 1e6).toFixed(1)} MB nested bodies to /mcp    P50 / P95 (ms)`);
  console.log(`  idle          ${idle.p50} / ${idle.p95}  (${idle.n} calls)`);
  console.log(`  flooded       ${flood.p50} / ${flood.p95}  (${floodSamples.length} calls)`);
  console.log(`  P95 ratio     ${ratio}× (target ≤ 2×); flood answers by status: ${JSON.stringify(statuses)}`);
  const file = writeBenchReport(root, 'edge', {
    at: new Date().toISOString(),
    bodyBytes: body.length,
    flooders: FLOODERS,
    idle,
    flood,
    healthCallsUnderFlood: floodSamples.length,
    p95Ratio: ratio,
    floodStatuses: statuses,
  });
  console.log(`written to ${file}`);
} finally {
  await server?.stop();
  await database.drop();
}
