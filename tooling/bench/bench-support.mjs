// @ts-check
// Shared by the memsvc benchmarks: the content generator, percentiles, a throw-away PostgreSQL
// database from tooling/scripts/pg-local.sh, the real server process, and an MCP client.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sql } from 'kysely';
import pg from 'pg';

// Varied memories: formulaic sentences ("note 1 of module m1 …") all look alike to the lexical
// local embedder, which would turn every write into a contradiction (flagging and linking up to
// five rows). Each memory here draws 12 words from 2,000 pronounceable pseudo-words; two such
// memories have a cosine similarity well under the contradiction band (checked by --check).
const CONSONANTS = 'bcdfghjklmnprstvwz';
const VOWELS = 'aeiou';
// mulberry32: a 32-bit PRNG in integer arithmetic, so the stream is the same on every run.
let seed = 42;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
/** @type {(letters: string) => string} */
const pick = (letters) => /** @type {string} */ (letters[Math.floor(random() * letters.length)]);
const VOCABULARY = Array.from(
  { length: 2000 },
  () => Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(CONSONANTS) + pick(VOWELS)).join('') + pick(CONSONANTS),
);
export const sentence = () => Array.from({ length: 12 }, () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]).join(' ');

/**
 * Inserts `total` long-term memories WITHOUT vectors with batched SQL (5,000 rows a statement),
 * the i-th in tenant `tenantOf(i)`, then analyses the table: what a backfill starts from.
 * `db` is a Kysely instance of the memsvc schema (an open store's `connection.db`).
 * @param {import('kysely').Kysely<any>} db
 * @param {number} total
 * @param {(i: number) => string} tenantOf
 * @param {{ next(): string }} ids
 */
export async function seedWithoutVectors(db, total, tenantOf, ids) {
  for (let offset = 0; offset < total; offset += 5000) {
    const count = Math.min(5000, total - offset);
    const rowIds = [];
    const users = [];
    const contents = [];
    const hashes = [];
    for (let i = 0; i < count; i++) {
      const content = sentence();
      rowIds.push(ids.next());
      users.push(tenantOf(offset + i));
      contents.push(content);
      hashes.push(createHash('sha256').update(content).digest('hex'));
    }
    await sql`INSERT INTO memories (id, user_id, tier, content, content_hash)
      SELECT id, user_id, 'ltm', content, content_hash
      FROM unnest(${rowIds}::uuid[], ${users}::text[], ${contents}::text[], ${hashes}::text[]) AS s(id, user_id, content, content_hash)`.execute(
      db,
    );
  }
  await sql`ANALYZE memories`.execute(db);
}

/** A word of the vocabulary, chosen by index (deterministic). */
export const vocabularyWord = (/** @type {number} */ i) => VOCABULARY[(i * 7919) % VOCABULARY.length];

/** @type {(sorted: number[], p: number) => number} */
const percentile = (sorted, p) => /** @type {number} */ (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
export const ms = (/** @type {number} */ value) => Math.round(value * 100) / 100;
/** P50 / P95 / P99 of samples, in ms rounded to 0.01. @typedef {{ n: number, p50: number, p95: number, p99: number }} PercentileSummary */
/** @type {(samples: number[]) => PercentileSummary} */
export const percentileSummary = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50: ms(percentile(sorted, 50)), p95: ms(percentile(sorted, 95)), p99: ms(percentile(sorted, 99)) };
};

/** @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** A new, empty database on the local PostgreSQL of `pg-local.sh`: {url, drop()}. @param {string} root */
export async function postgresDatabase(root) {
  const base = execFileSync('bash', [join(root, 'tooling', 'scripts', 'pg-local.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
    .trim()
    .split('\n')
    .at(-1);
  return databaseOnServer(/** @type {string} */ (base), 'memsvc_bench');
}

/**
 * A new, empty database on the PostgreSQL server at `base`: {url, drop()}.
 * @param {string} base
 * @param {string} prefix
 */
export async function databaseOnServer(base, prefix) {
  const name = `${prefix}_${Date.now().toString(36)}_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: base });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * `env` adds to (or overrides) the server's environment, e.g. the embedding provider.
 * @param {string} root
 * @param {string} databaseUrl
 * @param {Record<string, string | undefined>} [env]
 */
export async function startServer(root, databaseUrl, env = {}) {
  const port = await freePort();
  const started = performance.now();
  // BENCH_SERVER_NODE_ARGS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, profiles the server a benchmark measures.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, join(root, 'apps', 'server', 'dist', 'memsvc-server.js')], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      DEPLOYMENT_PROFILE: 'lite',
      MCP_TRANSPORT: 'streamable-http',
      HOST: '127.0.0.1',
      PORT: String(port),
      EMBEDDING_PROVIDER: 'local',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`memsvc-server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/health`)).status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  };
  return { child, base, stop, coldStartMs: ms(performance.now() - started) };
}

// The SDK's HTTP client transport hands every fetch one long-lived AbortSignal, and each fetch
// leaves a listener on it: past 1,500 calls Node prints a MaxListenersExceeded warning on every
// call and each new listener walks the list, so a long run measured the load generator slowing
// down. The benchmarks never abort a call, so their fetch does not pass the signal on.
/** @type {typeof fetch} */
const fetchWithoutSignal = (url, init = {}) => fetch(url, { ...init, signal: undefined });

/** The MCP SDK's client, as the benchmarks and the evals use it. @typedef {Client} McpClient */

/**
 * `transportOptions` go to the StreamableHTTPClientTransport (e.g. `{ fetch: nodeHttpFetch }`).
 * @param {string} base
 * @param {import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransportOptions} [transportOptions]
 */
export async function mcpClient(base, transportOptions = {}) {
  const client = new Client({ name: 'bench', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { fetch: fetchWithoutSignal, ...transportOptions }));
  return client;
}

const keepAlive = new http.Agent({ keepAlive: true });

/**
 * A minimal fetch over node:http, for MCP calls that may run longer than five minutes: the
 * server answers tool calls as one JSON response, sent when the tool is done, and Node's
 * built-in fetch (undici) gives up waiting for response headers after 300 s. Buffers the body.
 * @param {string | URL} url
 * @param {RequestInit} [init]
 * @returns {Promise<Response>}
 */
export function nodeHttpFetch(url, init = {}) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(url),
      {
        method: init.method ?? 'GET',
        headers: Object.fromEntries(new Headers(init.headers)),
        agent: keepAlive,
        signal: /** @type {AbortSignal | undefined} */ (init.signal),
      },
      (response) => {
        /** @type {Buffer[]} */
        const chunks = [];
        response.on('data', (/** @type {Buffer} */ chunk) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            for (const one of [value ?? []].flat()) headers.append(name, one);
          }
          const status = response.statusCode ?? 500;
          const body = [101, 204, 205, 304].includes(status) ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, statusText: response.statusMessage, headers }));
        });
      },
    );
    request.on('error', reject);
    request.end(/** @type {string | Uint8Array | undefined} */ (init.body ?? undefined));
  });
}

/**
 * Closed-loop GET load over raw keep-alive sockets: `concurrency` connections, each sending its
 * next request when the previous response is complete (framed by Content-Length), until `total`
 * requests. A load generator on the same two cores as the server must cost far less than the
 * server per request, or its own queueing is what gets measured; this one writes a pre-encoded
 * request and reads only the status line and Content-Length. Returns every latency (ms), the
 * request rate and the count of non-200 answers.
 * @param {{ host: string, port: number, path: string, concurrency: number, total: number }} options
 */
export function httpGetLoad({ host, port, path, concurrency, total }) {
  const request = Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\n\r\n`);
  /** @type {number[]} */
  const samples = [];
  let issued = 0;
  let failures = 0;
  const connection = () =>
    /** @type {Promise<void>} */ (
      new Promise((resolve, reject) => {
        const socket = net.connect({ host, port });
        socket.setNoDelay(true);
        let pending = Buffer.alloc(0);
        let sentAt = 0;
        const sendNext = () => {
          if (issued >= total) {
            socket.end();
            return resolve();
          }
          issued++;
          sentAt = performance.now();
          socket.write(request);
        };
        socket.on('connect', sendNext);
        socket.on('error', reject);
        socket.on('data', (chunk) => {
          pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
          const headEnd = pending.indexOf('\r\n\r\n');
          if (headEnd < 0) return;
          const head = pending.toString('latin1', 0, headEnd);
          const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1]);
          if (!Number.isSafeInteger(length)) return reject(new Error(`a response without Content-Length: ${head.split('\r\n')[0]}`));
          if (pending.length < headEnd + 4 + length) return;
          if (!head.startsWith('HTTP/1.1 200 ')) failures++;
          samples.push(performance.now() - sentAt);
          pending = pending.subarray(headEnd + 4 + length);
          sendNext();
        });
      })
    );
  const started = performance.now();
  return Promise.all(Array.from({ length: concurrency }, connection)).then(() => ({
    samples,
    perSecond: Math.round(total / ((performance.now() - started) / 1000)),
    failures,
  }));
}

/**
 * A per-agent API key made as an operator would (`memsvc keys create --json`): the raw key.
 * @param {string} root
 * @param {string} databaseUrl
 * @param {string} user
 * @param {string} name
 * @returns {string}
 */
export function createApiKey(root, databaseUrl, user, name) {
  const created = execFileSync(
    process.execPath,
    [join(root, 'apps', 'cli', 'dist', 'memsvc.js'), 'keys', 'create', '--user', user, '--name', name, '--json'],
    {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl, DEPLOYMENT_PROFILE: 'standard' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  return JSON.parse(/** @type {string} */ (created.trim().split('\n').at(-1))).key;
}

/**
 * Writes a bench's report as bench/results/<name>-<time>.json and returns the file's path.
 * @param {string} root
 * @param {string} name
 * @param {{ at: string } & Record<string, unknown>} report
 */
export function writeBenchReport(root, name, report) {
  const outDir = join(root, 'bench', 'results');
  mkdirSync(outDir, { recursive: true });
  const outFile = join(outDir, `${name}-${report.at.replace(/[:.]/g, '-')}.json`);
  writeFileSync(outFile, `${JSON.stringify(report, null, 2)}\n`);
  return outFile;
}

/**
 * Prints rows of cells (the first is the header) as aligned plain-text columns.
 * @param {string[][]} lines
 */
export function printColumns(lines) {
  const widths = /** @type {string[]} */ (lines[0]).map((_, i) => Math.max(...lines.map((line) => /** @type {string} */ (line[i]).length)));
  for (const line of lines)
    console.log(
      line
        .map((cell, i) => cell.padEnd(/** @type {number} */ (widths[i])))
        .join('  ')
        .trimEnd(),
    );
}
