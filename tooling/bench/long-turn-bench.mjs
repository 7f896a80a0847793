#!/usr/bin/env node
// @ts-check
// memsvc recall on long turns (`pnpm bench`, after the 50k-memory recall benchmark): one tenant
// holding a user–assistant history of ~490 turns whose assistant answers run 2–4 KB, written
// through `ingest_conversation` into the real server, then warm `recall` (limit 10) from one
// client and from 8 clients at once, P50/P95/P99 — with hits shown as their matching passage
// (the default) and with fullContent, side by side in one run, with the mean response size.
// The history is the first LongMemEval-S development question's (read at run time from
// ../shared/datasets/longmemeval-dev, MIT; never copied here) and its questions are all 60 of
// the split's; without that directory, a generated history of the same shape (48 sessions of
// 10 turns, user turns of one to three sentences, answers of 2–4 KB) and generated questions.
// Environment: LONG_TURN_ENGINES (default "postgres"; "postgres,pglite" adds the embedded
// engine), LONG_TURN_CALLS (calls per phase and mode, default 800), LONG_TURN_ROUNDS (default 2:
// the two modes alternate, so a slow moment of the machine does not land on one of them).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadLongMemEval } from '../eval/longmemeval-dataset.mjs';
import { mcpClient, percentileSummary, postgresDatabase, printColumns, sentence, startServer, writeBenchReport } from './bench-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ENGINES = (process.env.LONG_TURN_ENGINES ?? 'postgres').split(',');
const CALLS = Number(process.env.LONG_TURN_CALLS ?? 800);
const ROUNDS = Number(process.env.LONG_TURN_ROUNDS ?? 2);
const CLIENTS = 8;
const TENANT = 'long-turns';
/** @type {Record<string, { fullContent?: boolean }>} */
const MODES = { passages: {}, 'full content': { fullContent: true } };

/**
 * @typedef {import('./bench-support.mjs').McpClient} McpClient
 * @typedef {{ id: string, date: string, turns: { role: string, content: string }[] }} HistorySession
 * @typedef {{ source: string, sessions: HistorySession[], questions: string[] }} History
 */

/**
 * {source, sessions: [{id, date, turns: [{role, content}]}], questions: [string]}.
 * @returns {History}
 */
function history() {
  const dataset = loadLongMemEval(resolve(root, '..', 'shared', 'datasets', 'longmemeval-dev'));
  if (dataset) {
    const [first] = /** @type {[import('../eval/longmemeval-dataset.mjs').LongMemEvalQuestion]} */ (dataset.questions);
    return {
      source: `LongMemEval-S dev, question ${first.id}'s history; the split's ${dataset.questions.length} questions`,
      sessions: first.sessions.map((session) => ({
        id: session.id,
        date: session.at,
        turns: session.turns.filter((turn) => turn.content.trim() !== '').map(({ role, content }) => ({ role, content })),
      })),
      questions: dataset.questions.map((question) => question.question),
    };
  }
  const paragraph = (/** @type {number} */ sentences) => Array.from({ length: sentences }, () => `${sentence()}.`).join(' ');
  const sessions = Array.from({ length: 48 }, (_, s) => ({
    id: `generated-${s}`,
    date: new Date(Date.UTC(2025, 0, 1 + s)).toISOString(),
    turns: Array.from({ length: 10 }, (_, t) =>
      t % 2 === 0
        ? { role: 'user', content: paragraph(1 + (t % 3)) }
        : { role: 'assistant', content: Array.from({ length: 4 + (t % 3) * 2 }, () => paragraph(5)).join('\n\n') },
    ),
  }));
  const words = sessions.flatMap((session) => session.turns.filter((turn) => turn.role === 'user').map((turn) => turn.content.split(' ')));
  const questions = Array.from({ length: 60 }, (_, i) => {
    const from = /** @type {string[]} */ (words[(i * 37) % words.length]);
    return `what did I say about ${from[1]} and ${from[5]}?`;
  });
  return { source: 'generated (no LongMemEval data found)', sessions, questions };
}

/**
 * @param {string} engine
 * @returns {Promise<{ url: string, drop: () => Promise<void> }>}
 */
async function database(engine) {
  if (engine === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'memsvc-long-turns-'));
    return { url: `pglite://${dir}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  return postgresDatabase(root);
}

/**
 * @param {McpClient} client
 * @param {string} query
 * @param {string} mode
 */
async function recall(client, query, mode) {
  const started = performance.now();
  const result = await client.callTool({ name: 'recall', arguments: { userId: TENANT, query, limit: 10, ...MODES[mode] } });
  const took = performance.now() - started;
  if (result.isError) throw new Error(`recall failed: ${JSON.stringify(result.structuredContent)}`);
  return { took, bytes: JSON.stringify(result.structuredContent).length };
}

/**
 * `calls` recalls spread over `clients` (each asking its share back to back): latencies and sizes.
 * @param {McpClient[]} clients
 * @param {string[]} questions
 * @param {number} calls
 * @param {string} mode
 */
async function phase(clients, questions, calls, mode) {
  /** @type {number[]} */
  const took = [];
  /** @type {number[]} */
  const bytes = [];
  await Promise.all(
    clients.map(async (client, c) => {
      for (let i = c; i < calls; i += clients.length) {
        const sample = await recall(client, /** @type {string} */ (questions[i % questions.length]), mode);
        took.push(sample.took);
        bytes.push(sample.bytes);
      }
    }),
  );
  return { took, bytes };
}

/**
 * @param {string} engine
 * @param {History} history
 */
async function run(engine, { sessions, questions }) {
  const target = await database(engine);
  const server = await startServer(root, target.url, {
    STM_SWEEP_INTERVAL_MS: '0',
    STM_CONSOLIDATION_INTERVAL_MS: '0',
    MEMORY_DECAY_INTERVAL_MS: '0',
  });
  try {
    const writer = await mcpClient(server.base);
    const writeStarted = performance.now();
    let memories = 0;
    for (const session of sessions) {
      const result = await writer.callTool({
        name: 'ingest_conversation',
        arguments: { userId: TENANT, conversationId: `long-${session.id}`.slice(0, 128), date: session.date, turns: session.turns },
      });
      if (result.isError) throw new Error(`ingest failed: ${JSON.stringify(result.structuredContent)}`);
      memories += /** @type {{ memoryIds: string[] }} */ (result.structuredContent).memoryIds.length;
    }
    const writeSeconds = (performance.now() - writeStarted) / 1000;
    const clients = [writer, ...(await Promise.all(Array.from({ length: CLIENTS - 1 }, () => mcpClient(server.base))))];
    // Warm the server (V8's optimised paths, PostgreSQL's caches) with every question once per mode.
    for (const mode of Object.keys(MODES)) await phase(clients, questions, questions.length, mode);
    /** @type {Record<string, { took: number[], bytes: number[] }>} */
    const samples = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of Object.keys(MODES)) {
        for (const [name, of] of /** @type {[string, McpClient[]][]} */ ([
          ['1 client', clients.slice(0, 1)],
          [`${CLIENTS} clients`, clients],
        ])) {
          const key = `${mode}|${name}`;
          const { took, bytes } = await phase(of, questions, Math.ceil(CALLS / ROUNDS), mode);
          samples[key] ??= { took: [], bytes: [] };
          /** @type {{ took: number[] }} */ (samples[key]).took.push(...took);
          /** @type {{ bytes: number[] }} */ (samples[key]).bytes.push(...bytes);
        }
      }
    }
    for (const client of clients) await client.close();
    const rows = Object.entries(samples).map(([key, { took, bytes }]) => {
      const [mode, load] = /** @type {[string, string]} */ (key.split('|'));
      return { mode, load, ...percentileSummary(took), meanBytes: Math.round(bytes.reduce((sum, size) => sum + size, 0) / bytes.length) };
    });
    return { engine, turns: sessions.reduce((sum, session) => sum + session.turns.length, 0), memories, writeSeconds, rows };
  } finally {
    await server.stop();
    await target.drop();
  }
}

const data = history();
console.log(`long-turn recall benchmark: ${data.source}`);
const results = [];
for (const engine of ENGINES) {
  const result = await run(engine, data);
  results.push(result);
  console.log(
    `\n[${engine}] ${result.turns} turns → ${result.memories} memories in ${result.writeSeconds.toFixed(1)} s; recall limit 10, ${CALLS} calls per row`,
  );
  printColumns([
    ['hits shown as', 'clients', 'P50 ms', 'P95 ms', 'P99 ms', 'mean response bytes'],
    ...result.rows.map((row) => [row.mode, row.load, String(row.p50), String(row.p95), String(row.p99), String(row.meanBytes)]),
  ]);
}
const file = writeBenchReport(root, 'long-turn-bench', { at: new Date().toISOString(), source: data.source, calls: CALLS, results });
console.log(`\nreport: ${file}`);
