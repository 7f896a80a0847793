// @ts-check
// The databases and server processes `pnpm eval:conversations` runs against: a fresh PGlite
// directory or a fresh throw-away PostgreSQL database per engine, and the real memsvc server
// (apps/server/dist) on it, started by the benchmarks' helper so the eval measures exactly what a
// client of a deployed server gets. Everything made here is removed again by `close()`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseOnServer, postgresDatabase, startServer } from '../bench/bench-support.mjs';

export const ENGINES = ['pglite', 'postgres'];

/**
 * {url, drop()} for a fresh, empty database of `engine`.
 * @param {string} root
 * @param {string} engine
 * @returns {Promise<{ url: string, drop: () => Promise<void> }>}
 */
export async function freshDatabase(root, engine) {
  if (engine === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'memsvc-eval-pglite-'));
    return { url: `pglite://${dir}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const base = process.env.PGVECTOR_TEST_URL;
  return base ? databaseOnServer(base, 'memsvc_eval') : postgresDatabase(root);
}

/**
 * The server on a fresh database of `engine`, with `embedderEnv` (the provider variables).
 * Returns {base, engine, coldStartMs, close()}; close stops the server, then drops the database (a
 * fresh one; a database passed in is kept).
 * @param {string} root
 * @param {string} engine
 * @param {Record<string, string>} embedderEnv
 * @param {{ databaseUrl?: string | undefined }} [options] an existing database to run on instead, kept afterwards
 */
export async function startEngine(root, engine, embedderEnv, { databaseUrl } = {}) {
  const database = databaseUrl ? { url: databaseUrl, drop: async () => {} } : await freshDatabase(root, engine);
  let server;
  try {
    server = await startServer(root, database.url, {
      // The background jobs would rewrite importance and mark rows stale while the eval asks
      // its questions; the eval measures recall on the data as written.
      STM_SWEEP_INTERVAL_MS: '0',
      STM_CONSOLIDATION_INTERVAL_MS: '0',
      AUTH_STORE_SWEEP_INTERVAL_MS: '0',
      MEMORY_DECAY_INTERVAL_MS: '0',
      ...embedderEnv,
    });
  } catch (error) {
    await database.drop();
    throw error;
  }
  return {
    base: server.base,
    engine,
    coldStartMs: server.coldStartMs,
    close: async () => {
      await server.stop();
      await database.drop();
    },
  };
}
