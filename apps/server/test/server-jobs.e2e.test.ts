import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../tooling/vitest/test-databases.ts';
import { type ServerProcess, startHttpServer } from './support/server-process.js';

const pgUrl = inject('pgvectorTestUrl');
const RUNS = /^memsvc_consolidation_runs_total\{status="success"\} (\d+)/m;

/** How many scheduled promotion passes the server has run, from its /health/metrics. */
async function promotionRuns(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`${server.url}/health/metrics`)).text();
  return Number(RUNS.exec(text)?.[1] ?? 0);
}

/**
 * Where the background jobs run on the standard profile over PostgreSQL: in memsvc-worker by
 * default, so a server alone runs none; in every server too with MEMSVC_SERVER_JOBS=true.
 */
describe.skipIf(!pgUrl)('the standard server and the background jobs (MEMSVC_SERVER_JOBS) on PostgreSQL', () => {
  const databases: TestDatabase[] = [];
  const servers: ServerProcess[] = [];
  let asked: ServerProcess;
  let byDefault: ServerProcess;

  beforeAll(async () => {
    const start = async (env: Record<string, string>) => {
      const database = await createTestDatabase(pgUrl ?? '', 'memsvc_server_jobs');
      databases.push(database);
      const server = await startHttpServer({
        DEPLOYMENT_PROFILE: 'standard',
        ALLOW_UNAUTHENTICATED_HTTP: 'true',
        DATABASE_URL: database.url,
        STM_CONSOLIDATION_INTERVAL_MS: '300',
        ...env,
      });
      servers.push(server);
      return server;
    };
    [asked, byDefault] = await Promise.all([start({ MEMSVC_SERVER_JOBS: 'true' }), start({})]);
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    for (const database of databases) await database.drop();
  });

  it('runs the scheduled jobs in the server when MEMSVC_SERVER_JOBS=true, and none by default (memsvc-worker runs them)', async () => {
    const startedAt = performance.now();
    let runs = 0;
    while (runs < 2 && performance.now() - startedAt < 20_000) {
      runs = await promotionRuns(asked);
      if (runs < 2) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(runs).toBeGreaterThanOrEqual(2);
    // The same time has passed for the default server, with the same 300 ms interval: no pass ran.
    expect(await promotionRuns(byDefault)).toBe(0);
    expect(byDefault.stderr()).not.toContain('scheduled job failed');
  });
});
