import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@memsvc/config';
import { createLogger, openConfiguredStore } from '@memsvc/runtime';
import { openStore } from '@memsvc/store-pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { verifies } from '../../../packages/core/test/requirements.js';
import { childProcessTestEnv } from '../../../tooling/vitest/child-process-env.ts';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../tooling/vitest/test-databases.ts';

const pgvectorTestUrl = inject('pgvectorTestUrl');
const workerBin = fileURLToPath(new URL('../dist/memsvc-worker.js', import.meta.url));
const METRICS_TOKEN = 'metrics-token-for-the-worker-test';

/** Starts the built worker with `env` and waits for its "running" line: the child, its /health URL and what it has logged. */
async function startWorker(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [workerBin, '--port', '0'], {
    env: { PATH: process.env.PATH ?? '', HOME: '/tmp', ...childProcessTestEnv(), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk;
      const line = output.split('\n').find((entry) => entry.includes('"memsvc worker running"'));
      if (line) resolve((JSON.parse(line) as { http: string }).http);
    });
    child.once('exit', (code) => reject(new Error(`memsvc-worker exited with ${code}:\n${output}`)));
  });
  return { child, url, output: () => output };
}

describe('memsvc-worker executable', () => {
  it('--help lists its flags; a bad --port is refused with exit code 2', () => {
    const help = spawnSync(process.execPath, [workerBin, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--port <n>/);
    expect(help.stdout).toMatch(/--host <address>/);
    const bad = spawnSync(process.execPath, [workerBin, '--port', 'eighty'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--port must be a whole number/);
  });
});

(pgvectorTestUrl ? describe : describe.skip)('memsvc-worker on PostgreSQL', () => {
  let database: TestDatabase;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(pgvectorTestUrl ?? '');
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await database?.drop();
  });

  it('runs the promotion job on its interval and reports it on /health/metrics, behind METRICS_TOKEN', async () => {
    const env = {
      DATABASE_URL: database.url,
      EMBEDDING_PROVIDER: 'local',
      STM_CONSOLIDATION_INTERVAL_MS: '300',
      METRICS_TOKEN,
      LOG_LEVEL: 'info',
    };
    const config = loadConfig(env, { homeDir: '/tmp' }).config;
    const store = await openConfiguredStore(config, 'worker-test-seed', createLogger('error'));
    await sql`
      INSERT INTO memories (id, user_id, tier, content, content_hash, access_count, expires_at)
      SELECT gen_random_uuid(), 'tenant', 'stm', 'worker note ' || n, md5(n::text), 3, now() + interval '1 day'
      FROM generate_series(1, 12) AS n`.execute(store.connection.db);

    const worker = await startWorker({ ...env });
    child = worker.child;
    const { url } = worker;

    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect((await fetch(`${url}/health/metrics`)).status).toBe(401);
    let metrics = '';
    for (let attempt = 0; attempt < 100 && !/memsvc_memories_promoted_total 12/.test(metrics); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      metrics = await (await fetch(`${url}/health/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    }
    expect(metrics).toMatch(/memsvc_memories_promoted_total 12/);
    expect(metrics).toMatch(/memsvc_consolidation_runs_total\{status="success"\} [1-9]/);
    expect(metrics).toMatch(/memsvc_vector_backend_info\{backend="pgvector"\} 1/);
    const promoted = await sql<{ n: string }>`SELECT count(*) AS n FROM memories WHERE tier = 'ltm'`.execute(store.connection.db);
    expect(Number(promoted.rows[0]?.n)).toBe(12);
    await store.close();

    child.kill('SIGTERM');
    // 'close', not 'exit': by then stderr has been read to its end.
    const code = await new Promise((resolve) => child?.once('close', resolve));
    expect(code).toBe(0);
    expect(worker.output()).toMatch(/worker stopped/);
    expect(worker.output()).not.toContain(METRICS_TOKEN);
  });
});

describe('memsvc-worker on a shared embedded directory', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it(
    verifies(
      'R-PGLITE-SHARED',
      'attaches to the process hosting the directory, leaves the jobs to it, and runs them once it has taken over',
    ),
    async () => {
      const directory = join(mkdtempSync(join(tmpdir(), 'memsvc-worker-shared-')), 'data');
      const env = {
        DATABASE_URL: `pglite://${directory}`,
        EMBEDDING_PROVIDER: 'local',
        STM_CONSOLIDATION_INTERVAL_MS: '300',
        LOG_LEVEL: 'info',
      };
      const config = loadConfig(env, { homeDir: '/tmp' }).config;
      const host = await openConfiguredStore(config, 'worker-shared-host', createLogger('error'));
      expect(host.connection.hosting?.()).toBe(true);
      await sql`
      INSERT INTO memories (id, user_id, tier, content, content_hash, access_count, expires_at)
      SELECT gen_random_uuid(), 'tenant', 'stm', 'worker note ' || n, md5(n::text), 3, now() + interval '1 day'
      FROM generate_series(1, 12) AS n`.execute(host.connection.db);

      const worker = await startWorker(env);
      child = worker.child;
      const { url } = worker;
      expect((await fetch(`${url}/health`)).status).toBe(200);
      const longTerm = async (db: typeof host.connection.db) =>
        Number((await sql<{ n: string }>`SELECT count(*) AS n FROM memories WHERE tier = 'ltm'`.execute(db)).rows[0]?.n);
      // Attached, it runs no job: the host (which runs none here) is where they belong.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await longTerm(host.connection.db)).toBe(0);

      await host.close();
      // The worker finds the host gone and hosts the directory itself (its lock names it): its jobs run.
      const lockHolder = () => {
        try {
          return (JSON.parse(readFileSync(join(directory, 'memsvc.lock'), 'utf8')) as { pid: number }).pid;
        } catch {
          return undefined;
        }
      };
      for (let attempt = 0; attempt < 100 && lockHolder() !== child.pid; attempt++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lockHolder()).toBe(child.pid);
      const reader = await openStore({ database: env.DATABASE_URL });
      try {
        let promoted = 0;
        for (let attempt = 0; attempt < 150 && promoted < 12; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          promoted = await longTerm(reader.connection.db);
        }
        expect(promoted).toBe(12);
        expect(reader.connection.hosting?.()).toBe(false);
      } finally {
        await reader.close();
      }
    },
  );
});
