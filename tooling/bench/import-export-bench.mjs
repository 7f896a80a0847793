#!/usr/bin/env node
// @ts-check
// memsvc import and export throughput benchmark (`pnpm bench` runs it after the guard benchmark),
// on PostgreSQL (tooling/scripts/pg-local.sh):
//   (a) seed: MEMORIES memories (and SMALL in a second tenant) in the export format, generated
//       here with `local` vectors and loaded through the import path itself;
//   (b) export: the real CLI, `memsvc export --user <tenant> --out <file> --include-deleted` (with and without
//       --include-vectors), of SMALL and of MEMORIES memories: memories/s over the process's
//       whole run (start-up included), its RSS sampled every 20 ms (peak, and growth over the
//       RSS after the first page); and once more with the heap capped (--max-old-space-size=48):
//       an export that holds nothing from page to page finishes under the cap, at the same RSS
//       for both sizes (flat memory);
//   (c) import: each exported file into an empty tenant of a new, empty database (a restore),
//       through what the CLI and import_agent_memory run per file (core's importMemsvcFile:
//       parse and check every line, then the store's one transaction per file); a file with
//       vectors larger than IMPORT_MAX_FILE_BYTES is split into files under it, as an operator
//       would; memories/s, and how much of it was the store's write.
// After each import the bench checks the tenant's rows and lexical statistics.
// Writes bench/results/import-export-<timestamp>.json and prints a table.
// Environment: IMPORT_BENCH_MEMORIES (default 50000), IMPORT_BENCH_SMALL (default 10000),
// IMPORT_BENCH_VECTORS ("1" by default; "0" leaves the cases with vectors out).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toTenantId } from '@memsvc/core';
import { LocalEmbedder } from '@memsvc/embeddings';
import { IMPORT_MAX_FILE_BYTES, importMemsvcFile } from '@memsvc/import-export';
import { openStore, UuidV7Generator } from '@memsvc/store-pg';
import { sql } from 'kysely';
import { postgresDatabase, printColumns, sentence, writeBenchReport } from './bench-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MEMORIES = Number(process.env.IMPORT_BENCH_MEMORIES ?? 50_000);
const SMALL = Math.min(MEMORIES, Number(process.env.IMPORT_BENCH_SMALL ?? 10_000));
const VECTORS = process.env.IMPORT_BENCH_VECTORS !== '0';
const HEAP_CAP_MB = 48;
const TARGETS = { importPerSecond: 1000, exportPerSecond: 10_000 };
const CLI = join(root, 'apps', 'cli', 'dist', 'memsvc.js');
const embedder = new LocalEmbedder();
const ids = new UuidV7Generator();
/**
 * @typedef {Awaited<ReturnType<typeof openStore>>} Store
 * @typedef {{ memories: number, live: number, vectors: number, documents: number | null, posted: number }} TenantCounts
 * @typedef {{
 *   case: string, memories: number, seconds: number, perSecond: number, files?: number, storeShare?: number,
 *   check?: TenantCounts & { problems: string[] }, fileMb?: number, peakRssMb?: number, rssGrowthMb?: number | undefined
 * }} Result
 */

const round = (/** @type {number} */ value, places = 0) => Math.round(value * 10 ** places) / 10 ** places;
const log = (/** @type {string} */ message) => process.stderr.write(`import/export bench: ${message}\n`);

/**
 * A file's lines cut into files of at most IMPORT_MAX_FILE_BYTES, each with the header first.
 * @param {string} text
 */
function splitForImport(text) {
  const [header, ...lines] = /** @type {[string, ...string[]]} */ (text.split('\n').filter((line) => line !== ''));
  /** @type {string[]} */
  const files = [];
  let current = [header];
  let bytes = Buffer.byteLength(header) + 1;
  for (const line of lines) {
    const size = Buffer.byteLength(line) + 1;
    if (bytes + size > IMPORT_MAX_FILE_BYTES && current.length > 1) {
      files.push(`${current.join('\n')}\n`);
      current = [header];
      bytes = Buffer.byteLength(header) + 1;
    }
    current.push(line);
    bytes += size;
  }
  files.push(`${current.join('\n')}\n`);
  return files;
}

/**
 * An export file of `count` generated memories, as `memsvc export --include-vectors` writes one
 * (docs/export-format.md): 12 pseudo-words each, some with tags, a scope, a search context, a
 * deleted one now and then, and a link from every tenth memory to the one before it.
 * @param {string} tenant
 * @param {number} count
 */
function generatedExport(tenant, count) {
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  const header = {
    format: 'memsvc-export',
    version: 1,
    exportedAt: new Date(base).toISOString(),
    userId: tenant,
    filters: { tier: null, scope: null, tags: null, createdFrom: null, createdTo: null, includeDeleted: true, includeSuperseded: true },
    includes: { history: false, audit: false, vectors: true },
  };
  const lines = [JSON.stringify(header)];
  let previous = null;
  for (let i = 0; i < count; i++) {
    const id = ids.next();
    const content = sentence();
    const at = new Date(base + i * 1000).toISOString();
    lines.push(
      JSON.stringify({
        id,
        tier: 'ltm',
        scope: i % 3 === 0 ? `project:p${i % 7}` : null,
        content,
        tags: i % 4 === 0 ? [] : ['bench', `t${i % 10}`],
        metadata: { n: i },
        importance: i % 5 === 0 ? 0.8 : null,
        importanceScore: 0.5,
        pinned: false,
        stale: false,
        contradicted: false,
        supersededBy: null,
        accessCount: i % 3,
        lastAccessedAt: null,
        expiresAt: null,
        deletedAt: i % 97 === 0 ? at : null,
        version: 1,
        embeddingModel: embedder.model,
        searchContext: i % 6 === 0 ? `speaker ${i % 3}` : null,
        createdAt: at,
        updatedAt: at,
        links:
          i % 10 === 9 && previous
            ? [
                {
                  id: ids.next(),
                  targetMemoryId: previous,
                  targetLocator: `memsvc://memory/${previous}`,
                  rel: 'relates-to',
                  origin: 'authored',
                  score: null,
                  note: null,
                  metadata: {},
                  createdAt: at,
                },
              ]
            : [],
        embedding: { vector: embedder.vectorOf(content), embeddedAt: at },
      }),
    );
    previous = id;
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Imports the files into `tenant`, timing the whole of each file and the store's part of it.
 * @param {Store} store
 * @param {string} tenant
 * @param {string[]} files
 */
async function importFiles(store, tenant, files) {
  let storeSeconds = 0;
  const timed = {
    importMemories: async (/** @type {Parameters<Store['imports']['importMemories']>} */ ...args) => {
      const started = performance.now();
      try {
        return await store.imports.importMemories(...args);
      } finally {
        storeSeconds += (performance.now() - started) / 1000;
      }
    },
  };
  const started = performance.now();
  let created = 0;
  for (const [index, content] of files.entries()) {
    const summary = await importMemsvcFile(timed, toTenantId(tenant), { path: `part-${index}.jsonl`, content }, false);
    if (summary.error) throw new Error(`import of part ${index} failed: ${summary.error.code} ${summary.error.message}`);
    created += summary.created;
  }
  return { seconds: (performance.now() - started) / 1000, storeSeconds, created };
}

/**
 * What the tenant holds after an import: memories, vectors, and its lexical statistics against its live memories.
 * @param {Store} store
 * @param {string} tenant
 * @param {number} expected
 */
async function checkTenant(store, tenant, expected) {
  const db = store.connection.db;
  const { rows } = await sql`
    SELECT (SELECT count(*)::int FROM memories WHERE user_id = ${tenant}) AS memories,
           (SELECT count(*)::int FROM memories WHERE user_id = ${tenant} AND deleted_at IS NULL) AS live,
           (SELECT count(*)::int FROM memories WHERE user_id = ${tenant} AND embedding IS NOT NULL) AS vectors,
           (SELECT documents FROM lexical_corpus WHERE user_id = ${tenant}) AS documents,
           (SELECT count(DISTINCT memory_id)::int FROM memory_terms WHERE user_id = ${tenant}) AS posted`.execute(db);
  const found = /** @type {TenantCounts} */ (rows[0]);
  /** @type {string[]} */
  const problems = [];
  if (found.memories !== expected) problems.push(`${found.memories} memories, expected ${expected}`);
  if (found.documents !== found.live || found.posted !== found.live) {
    problems.push(`lexical corpus counts ${found.documents} documents and ${found.posted} posted, for ${found.live} live memories`);
  }
  return { ...found, problems };
}

/**
 * Runs the real `memsvc export` and samples its RSS every 20 ms.
 * @param {string} databaseUrl
 * @param {string} tenant
 * @param {string} out
 * @param {boolean} withVectors
 * @returns {Promise<{ seconds: number, peakRssMb: number, rssGrowthMb: number | undefined, samples: number }>}
 */
function cliExport(databaseUrl, tenant, out, withVectors, nodeOptions = '') {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // Deleted memories too: the whole tenant goes across, as for a move to another server.
    const args = [CLI, 'export', '--user', tenant, '--out', out, '--include-deleted', ...(withVectors ? ['--include-vectors'] : [])];
    const child = spawn(process.execPath, args, {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        DATABASE_URL: databaseUrl,
        DEPLOYMENT_PROFILE: 'standard',
        NODE_OPTIONS: nodeOptions,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    /** @type {number[]} */
    const samples = [];
    /** @type {number | undefined} */
    let firstPageRss;
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (firstPageRss === undefined && stderr.includes('exported ')) firstPageRss = rssMegabytes(child.pid);
    });
    const sampler = setInterval(() => {
      const rss = rssMegabytes(child.pid);
      if (rss !== undefined) samples.push(rss);
    }, 20);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(sampler);
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) return reject(new Error(`memsvc export exited with ${code}: ${stderr.trim().slice(-2000)}`));
      const peak = Math.max(...samples);
      resolve({
        seconds,
        peakRssMb: peak,
        rssGrowthMb: firstPageRss === undefined ? undefined : peak - firstPageRss,
        samples: samples.length,
      });
    });
  });
}

/** @param {number | undefined} pid */
function rssMegabytes(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
  } catch {
    return undefined; // exited between two samples
  }
}

/** @type {Result[]} */
const results = [];
const tmp = mkdtempSync(join(tmpdir(), 'memsvc-import-export-'));
const source = await postgresDatabase(root);
try {
  // (a) The source tenants, loaded through the import path.
  const sourceStore = await openStore({ database: source.url, vector: { model: embedder.model } });
  const sizes = [...new Set([SMALL, MEMORIES])];
  try {
    for (const count of sizes) {
      const tenant = `source-${count}`;
      log(`generating ${count} memories …`);
      const files = splitForImport(generatedExport(tenant, count));
      log(`seeding ${tenant} (${files.length} file(s)) …`);
      const seeded = await importFiles(sourceStore, tenant, files);
      results.push({
        case: 'seed (generated file, vectors)',
        memories: count,
        files: files.length,
        seconds: round(seeded.seconds, 2),
        perSecond: round(count / seeded.seconds),
        storeShare: round(seeded.storeSeconds / seeded.seconds, 2),
        check: await checkTenant(sourceStore, tenant, count),
      });
    }
    await sql`VACUUM (ANALYZE) memories, memory_terms, lexical_terms, lexical_corpus, memory_links`.execute(sourceStore.connection.db);
  } finally {
    await sourceStore.close();
  }

  // (b) The exports, by the CLI. Node grows its heap before it collects, so the RSS of a long
  // export rises while what it holds does not; the runs with the heap capped at HEAP_CAP_MB show
  // that: they finish, at the same RSS for both sizes.
  /** @type {Record<string, string>} */
  const exported = {};
  const runs = [
    ...(VECTORS ? [false, true] : [false]).map((withVectors) => ({ withVectors, nodeOptions: '' })),
    { withVectors: false, nodeOptions: `--max-old-space-size=${HEAP_CAP_MB}` },
  ];
  for (const { withVectors, nodeOptions } of runs) {
    for (const count of sizes) {
      const out = join(tmp, `export-${count}-${withVectors ? 'vectors' : 'plain'}.jsonl`);
      log(`exporting source-${count}${withVectors ? ' with vectors' : ''} ${nodeOptions} …`);
      const run = await cliExport(source.url, `source-${count}`, out, withVectors, nodeOptions);
      exported[`${count}-${withVectors}`] = out;
      results.push({
        case: `export${withVectors ? ' --include-vectors' : ''} (CLI${nodeOptions ? `, heap ≤ ${HEAP_CAP_MB} MB` : ''})`,
        memories: count,
        seconds: round(run.seconds, 2),
        perSecond: round(count / run.seconds),
        fileMb: round(statSync(out).size / 2 ** 20, 1),
        peakRssMb: run.peakRssMb,
        rssGrowthMb: run.rssGrowthMb,
      });
    }
  }

  // (c) The imports, each into an empty tenant of a new, empty database (ids are global: the
  // same memories cannot be imported twice into one database).
  for (const withVectors of VECTORS ? [false, true] : [false]) {
    const target = await postgresDatabase(root);
    const targetStore = await openStore({ database: target.url, vector: { model: embedder.model } });
    try {
      const tenant = `restored-${withVectors ? 'vectors' : 'plain'}`;
      const files = splitForImport(readFileSync(/** @type {string} */ (exported[`${MEMORIES}-${withVectors}`]), 'utf8'));
      log(`importing ${MEMORIES} memories${withVectors ? ' with vectors' : ''} into ${tenant} (${files.length} file(s)) …`);
      const run = await importFiles(targetStore, tenant, files);
      results.push({
        case: `import${withVectors ? ' with vectors' : ', no vectors'}`,
        memories: MEMORIES,
        files: files.length,
        seconds: round(run.seconds, 2),
        perSecond: round(MEMORIES / run.seconds),
        storeShare: round(run.storeSeconds / run.seconds, 2),
        check: await checkTenant(targetStore, tenant, MEMORIES),
      });
    } finally {
      await targetStore.close();
      await target.drop();
    }
  }
} finally {
  await source.drop();
  rmSync(tmp, { recursive: true, force: true });
}

const report = {
  at: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version },
  memories: MEMORIES,
  small: SMALL,
  maxFileBytes: IMPORT_MAX_FILE_BYTES,
  targets: TARGETS,
  results,
};
const outFile = writeBenchReport(root, 'import-export', report);

const notes = (/** @type {Result} */ r) => {
  /** @type {string[]} */
  const parts = [];
  if (r.files !== undefined) parts.push(`${r.files} file(s)`);
  if (r.storeShare !== undefined) parts.push(`store write ${Math.round(r.storeShare * 100)}% of the time`);
  if (r.fileMb !== undefined) parts.push(`${r.fileMb} MB written`);
  if (r.check?.problems.length) parts.push(`PROBLEM: ${r.check.problems.join('; ')}`);
  return parts.join('; ');
};
const header = ['case', 'memories', 'seconds', 'memories/s', 'peak RSS MB', 'RSS growth MB', 'notes'];
const lines = [
  header,
  ...results.map((r) => [
    r.case,
    String(r.memories),
    String(r.seconds),
    String(r.perSecond),
    String(r.peakRssMb ?? ''),
    String(r.rssGrowthMb ?? ''),
    notes(r),
  ]),
];
printColumns(lines);
const imports = results.filter((r) => r.case.startsWith('import'));
const exports = results.filter((r) => r.case.startsWith('export') && !r.case.includes('heap') && r.memories === MEMORIES);
console.log(
  `\ntargets on PostgreSQL: import ≥ ${TARGETS.importPerSecond}/s: ${imports
    .map((r) => `${r.case} ${r.perSecond >= TARGETS.importPerSecond ? 'met' : 'NOT met'} (${r.perSecond})`)
    .join('; ')}; export ≥ ${TARGETS.exportPerSecond}/s: ${exports
    .map((r) => `${r.case} ${r.perSecond >= TARGETS.exportPerSecond ? 'met' : 'NOT met'} (${r.perSecond})`)
    .join('; ')}`,
);
console.log(`\nwritten to ${outFile}`);
