import pg from 'pg';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../tooling/vitest/test-databases.ts';
import { type ServerProcess, startHttpServer } from './support/server-process.js';

const pgUrl = inject('pgvectorTestUrl');
const RUNS = /^memsvc_consolidation_runs_total\{status="success"\} (\d+)/m;
const PROMOTION_EVERY_MS = 300;

const servers: ServerProcess[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

/** A standard-profile server over HTTP whose promotion job, where it runs, runs every 300 ms. */
async function standardServer(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await startHttpServer({
    DEPLOYMENT_PROFILE: 'standard',
    ALLOW_UNAUTHENTICATED_HTTP: 'true',
    DATABASE_URL: databaseUrl,
    STM_CONSOLIDATION_INTERVAL_MS: String(PROMOTION_EVERY_MS),
    ...env,
  });
  servers.push(server);
  return server;
}

/** How many scheduled promotion passes the server has run, from its /health/metrics. */
async function promotionRuns(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`${server.url}/health/metrics`)).text();
  return Number(RUNS.exec(text)?.[1] ?? 0);
}

/** Waits up to 20 s for two promotion passes; returns how many there were. */
async function twoPromotionRuns(server: ServerProcess): Promise<number> {
  const startedAt = performance.now();
  let runs = 0;
  while (runs < 2 && performance.now() - startedAt < 20_000) {
    runs = await promotionRuns(server);
    if (runs < 2) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return runs;
}

/**
 * Where the background jobs run (MEMSVC_SERVER_JOBS): in the server on an embedded database,
 * which no worker can open, whatever the profile; in memsvc-worker on standard over PostgreSQL,
 * unless the server is asked to run them too.
 */
describe('a standard server on an embedded database runs the background jobs itself', () => {
  it('runs the promotion job on its interval, and none with MEMSVC_SERVER_JOBS=false, with a warning', async () => {
    const server = await standardServer('pglite://memory');
    expect(await twoPromotionRuns(server), server.stderr()).toBeGreaterThanOrEqual(2);

    const off = await standardServer('pglite://memory', { MEMSVC_SERVER_JOBS: 'false' });
    expect(off.stderr()).toContain('MEMSVC_SERVER_JOBS=false on an embedded database');
    await new Promise((resolve) => setTimeout(resolve, PROMOTION_EVERY_MS * 5));
    expect(await promotionRuns(off), off.stderr()).toBe(0);
  });
});

describe.skipIf(!pgUrl)('a standard server over PostgreSQL leaves the jobs to memsvc-worker unless asked', () => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of databases) await database.drop();
  });
  const freshDatabase = async () => {
    const database = await createTestDatabase(pgUrl ?? '', 'memsvc_server_jobs');
    databases.push(database);
    return database.url;
  };

  it('runs them with MEMSVC_SERVER_JOBS=true; by default no job ever starts on its database', async () => {
    const askedDatabase = await freshDatabase();
    const defaultDatabase = await freshDatabase();
    const [asked, byDefault] = await Promise.all([
      standardServer(askedDatabase, { MEMSVC_SERVER_JOBS: 'true' }),
      standardServer(defaultDatabase),
    ]);
    expect(await twoPromotionRuns(asked), asked.stderr()).toBeGreaterThanOrEqual(2);
    // The same time has passed for the default server, with the same interval: scheduler_state,
    // where every start of a job is recorded, is empty on its database.
    const client = new pg.Client({ connectionString: defaultDatabase });
    await client.connect();
    try {
      const { rows } = await client.query<{ started: string }>('SELECT count(*)::text AS started FROM scheduler_state');
      expect(rows[0]?.started, byDefault.stderr()).toBe('0');
    } finally {
      await client.end();
    }
    expect(await promotionRuns(byDefault)).toBe(0);
  });
});
