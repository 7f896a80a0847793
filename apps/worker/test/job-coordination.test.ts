import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type MemsvcConfig } from '@memsvc/config';
import { checkReindexRequest, systemClock } from '@memsvc/core';
import { ManualClock, ManualTimers } from '@memsvc/core/testing';
import { LocalEmbedder } from '@memsvc/embeddings';
import {
  createLogger,
  createMaintenance,
  type JobRunReport,
  openConfiguredStore,
  ReindexRunner,
  Scheduler,
  scheduledJobs,
} from '@memsvc/runtime';
import { type MemsvcStore, openStore } from '@memsvc/store-pg';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { childProcessTestEnv } from '../../../tooling/vitest/child-process-env.ts';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../tooling/vitest/test-databases.ts';

const pgvectorTestUrl = inject('pgvectorTestUrl');
const workerBin = fileURLToPath(new URL('../dist/memsvc-worker.js', import.meta.url));
const logger = createLogger('error');
const local = new LocalEmbedder();

const jobsOff = {
  STM_SWEEP_INTERVAL_MS: '0',
  STM_CONSOLIDATION_INTERVAL_MS: '0',
  AUTH_STORE_SWEEP_INTERVAL_MS: '0',
  MEMORY_DECAY_INTERVAL_MS: '0',
  MEMORY_CONSOLIDATION_INTERVAL_MS: '0',
};

const describeOnPostgres = pgvectorTestUrl ? describe : describe.skip;
const pgLocal = fileURLToPath(new URL('../../../tooling/scripts/pg-local.sh', import.meta.url));
// The restart test runs a cluster of its own with pg-local.sh's PostgreSQL 15 binaries.
const canRunOwnCluster = pgvectorTestUrl !== null && existsSync('/usr/lib/postgresql/15/bin/pg_ctl');

describeOnPostgres('jobs across processes on PostgreSQL', () => {
  let database: TestDatabase;
  const opened: MemsvcStore[] = [];
  const children: ChildProcess[] = [];

  const configFor = (env: Record<string, string> = {}): MemsvcConfig =>
    loadConfig({ DATABASE_URL: database.url, EMBEDDING_PROVIDER: 'local', ...jobsOff, ...env }, { homeDir: '/tmp' }).config;
  const open = async (config: MemsvcConfig, name = 'memsvc-test') => {
    const store = await openConfiguredStore(config, name, logger);
    opened.push(store);
    return store;
  };

  beforeAll(async () => {
    database = await createTestDatabase(pgvectorTestUrl ?? '');
  });
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    for (const store of opened.splice(0)) await store.close();
  });
  afterAll(async () => {
    await database?.drop();
  });

  async function resetAndSeed(store: MemsvcStore, count: number): Promise<void> {
    await sql`TRUNCATE memories, memory_audit, memory_links, reindex_jobs, scheduler_state CASCADE`.execute(store.connection.db);
    // Rows without vectors, as if written while the provider was down; ids are time-ordered like real ones.
    await sql`
      INSERT INTO memories (id, user_id, tier, content, content_hash)
      SELECT uuid_in(overlay(overlay(md5(n::text) placing lpad(to_hex(n), 12, '0') from 1 for 12) placing '7' from 13)::cstring),
             'tenant-' || (n % 3), 'ltm', 'seeded fact ' || n || ' about project ' || (n % 17), md5(n::text)
      FROM generate_series(1, ${count}) AS n`.execute(store.connection.db);
  }
  const jobRow = async (store: MemsvcStore, jobId: string) => {
    const job = await store.reindexJobs.find(jobId);
    if (!job) throw new Error('job vanished');
    return job;
  };
  const unembedded = async (store: MemsvcStore) =>
    Number((await sql<{ n: string }>`SELECT count(*) AS n FROM memories WHERE embedding IS NULL`.execute(store.connection.db)).rows[0]?.n);
  const runnerFor = (store: MemsvcStore, runnerId: string) =>
    new ReindexRunner({
      jobs: store.reindexJobs,
      maintenance: createMaintenance({ store, embedder: local, config: configFor(), clock: systemClock }),
      logger,
      runnerId,
    });
  /** Waits until the job has saved at least `processed` memories. */
  const untilProcessed = async (store: MemsvcStore, jobId: string, processed: number) => {
    while ((await jobRow(store, jobId)).progress.processed < processed) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  it('two schedulers in step: each job runs once per tick, never alongside itself, and promotes each memory once', async () => {
    const config = configFor({ STM_CONSOLIDATION_INTERVAL_MS: '400' });
    // Both schedulers and both stores on one manual clock: ticks are stepped, not slept through.
    const clock = new ManualClock(Date.now());
    const timers = new ManualTimers(clock);
    const openAt = async (name: string) => {
      const store = await openStore({ database: config.database.target, clock, pool: { applicationName: name } });
      opened.push(store);
      return store;
    };
    const [a, b] = [await openAt('scheduler-a'), await openAt('scheduler-b')];
    await sql`TRUNCATE memories, memory_audit, memory_links, scheduler_state CASCADE`.execute(a.connection.db);
    await sql`
      INSERT INTO memories (id, user_id, tier, content, content_hash, access_count, expires_at)
      SELECT gen_random_uuid(), 'tenant', 'stm', 'note ' || n, md5(n::text), 5, now() + interval '1 day'
      FROM generate_series(1, 40) AS n`.execute(a.connection.db);
    const runs: JobRunReport[] = [];
    const schedulers = [a, b].map(
      (store) =>
        new Scheduler({
          jobs: scheduledJobs(config),
          jobRuns: store.jobRuns,
          maintenance: createMaintenance({ store, embedder: local, config, clock }),
          logger,
          firstTickMs: 0,
          timers,
          clock,
          onRun: (report) => runs.push(report),
        }),
    );
    const started = clock.now().getTime();
    for (const scheduler of schedulers) scheduler.start();
    const ticks = 6;
    for (let tick = 0; tick < ticks; tick++) {
      // Both schedulers' timers fire at the same instant; the runs they start finish before the next step.
      expect(timers.advance(tick === 0 ? 0 : 400)).toBe(2);
      await Promise.all(schedulers.map((scheduler) => scheduler.idle()));
    }
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()));
    expect(timers.pending).toBe(0);

    // Both schedulers ticked every 400 ms; together they ran the job exactly once per tick, not twice.
    expect(runs.map((run) => run.startedAt - started)).toEqual([0, 400, 800, 1200, 1600, 2000]);
    const sorted = [...runs].sort((x, y) => x.startedAt - y.startedAt);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]?.startedAt).toBeGreaterThanOrEqual(sorted[i - 1]?.finishedAt ?? 0);
    const history = await a.jobRuns.history();
    expect(history).toEqual([{ job: 'stm-promotion', runCount: runs.length, lastStatus: 'success', lastError: null }]);
    const promotions = await sql<{ n: string }>`
      SELECT count(*) AS n FROM memory_audit WHERE action = 'promote' GROUP BY memory_id HAVING count(*) > 1`.execute(a.connection.db);
    expect(promotions.rows).toEqual([]);
    expect(
      Number((await sql<{ n: string }>`SELECT count(*) AS n FROM memories WHERE tier = 'ltm'`.execute(a.connection.db)).rows[0]?.n),
    ).toBe(40);
  });

  it('a worker killed with SIGKILL mid-job: the job is declared failed, and retry finishes it without redoing or skipping a memory', async () => {
    const total = 6_000;
    const config = configFor();
    const store = await open(config);
    await resetAndSeed(store, total);
    const job = await store.reindexJobs.enqueue(checkReindexRequest({ batchSize: 20 }), 'test');

    const child = spawn(process.execPath, [workerBin], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: '/tmp',
        ...childProcessTestEnv(),
        DATABASE_URL: database.url,
        EMBEDDING_PROVIDER: 'local',
        LOG_LEVEL: 'warn',
        ...jobsOff,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    const deadline = Date.now() + 60_000;
    while ((await jobRow(store, job.jobId)).progress.processed < 400) {
      if (Date.now() > deadline) throw new Error(`the worker never got going: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const atKill = await jobRow(store, job.jobId);
    expect(atKill.state).toBe('running');
    expect(atKill.progress.processed).toBeLessThan(total);
    // Exactly the saved batches have vectors: the batch in flight was rolled back with its progress.
    expect(await unembedded(store)).toBe(total - atKill.progress.indexed);

    const rescuer = new ReindexRunner({
      jobs: store.reindexJobs,
      maintenance: createMaintenance({ store, embedder: local, config: configFor(), clock: systemClock }),
      logger,
      runnerId: 'rescuer',
      abandonAfterMs: 1_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await rescuer.runOnce()).toBe(false); // it declares the job failed; failed jobs wait for a retry
    const failed = await jobRow(store, job.jobId);
    expect(failed).toMatchObject({ state: 'failed', progress: atKill.progress });
    expect(failed.error).toMatch(/runner stopped answering/);

    const maintenance = createMaintenance({ store, embedder: local, config, clock: systemClock });
    await maintenance.retryReindex(job.jobId);
    expect(await rescuer.runOnce()).toBe(true);
    const done = await jobRow(store, job.jobId);
    expect(done).toMatchObject({
      state: 'completed',
      attempts: 2,
      progress: { processed: total, indexed: total, skipped: 0, failed: 0, cursor: null },
    });
    expect(await unembedded(store)).toBe(0);
  });

  it('the database drops the runner’s connections mid-job: the runner waits, reconnects and finishes, counting each memory once', async () => {
    const total = 3_000;
    const config = configFor();
    const store = await open(config);
    const victim = await open(config, 'reindex-victim');
    await resetAndSeed(store, total);
    const job = await store.reindexJobs.enqueue(checkReindexRequest({ batchSize: 25 }), 'test');
    const runner = runnerFor(victim, 'victim');
    const running = runner.runOnce();
    await untilProcessed(store, job.jobId, 200);
    const terminated = await sql<{ n: string }>`
      SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE application_name = 'reindex-victim'`.execute(
      store.connection.db,
    );
    expect(Number(terminated.rows[0]?.n)).toBeGreaterThan(0);
    expect(await running).toBe(true);
    expect(await jobRow(store, job.jobId)).toMatchObject({
      state: 'completed',
      attempts: 1,
      progress: { processed: total, indexed: total, failed: 0, cursor: null },
    });
    expect(await unembedded(store)).toBe(0);
  });

  it('a runner shutting down puts its job back in the queue; another runner continues from the cursor', async () => {
    const total = 2_000;
    const config = configFor();
    const store = await open(config);
    await resetAndSeed(store, total);
    const job = await store.reindexJobs.enqueue(checkReindexRequest({ batchSize: 20 }), 'test');
    const first = runnerFor(store, 'first');
    first.start();
    await untilProcessed(store, job.jobId, 100);
    await first.stop();
    const paused = await jobRow(store, job.jobId);
    expect(paused.state).toBe('queued');
    expect(paused.progress.cursor).not.toBeNull();
    const second = runnerFor(store, 'second');
    expect(await second.runOnce()).toBe(true);
    expect(await jobRow(store, job.jobId)).toMatchObject({
      state: 'completed',
      attempts: 2,
      progress: { processed: total, indexed: total },
    });
    expect(await unembedded(store)).toBe(0);
  });

  it('a running job cancelled mid-way stops after a batch; retry continues it to the end, each memory once', async () => {
    const total = 2_000;
    const config = configFor();
    const store = await open(config);
    await resetAndSeed(store, total);
    const maintenance = createMaintenance({ store, embedder: local, config, clock: systemClock });
    const job = await maintenance.queueReindex({ batchSize: 20 }, 'test');
    const runner = runnerFor(store, 'cancellable');
    const running = runner.runOnce();
    await untilProcessed(store, job.jobId, 100);
    expect((await maintenance.cancelReindex(job.jobId)).cancelRequested).toBe(true);
    await running;
    const cancelled = await jobRow(store, job.jobId);
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.progress.processed).toBeLessThan(total);
    expect(await unembedded(store)).toBe(total - cancelled.progress.indexed);
    await maintenance.retryReindex(job.jobId);
    expect(await runner.runOnce()).toBe(true);
    expect(await jobRow(store, job.jobId)).toMatchObject({ state: 'completed', progress: { processed: total, indexed: total } });
    expect(await unembedded(store)).toBe(0);
  });

  (canRunOwnCluster ? it : it.skip)(
    'PostgreSQL restarted mid-job (pg_ctl stop -m fast, then start): the runner waits, reconnects and finishes, counting each memory once',
    async () => {
      const clusterDir = mkdtempSync(join(tmpdir(), 'memsvc-restart-'));
      const cluster = (command: string) =>
        execFileSync('bash', [pgLocal, command], { env: { ...process.env, MEMSVC_PG_DIR: clusterDir }, encoding: 'utf8', timeout: 120_000 })
          .trim()
          .split('\n')
          .at(-1) ?? '';
      try {
        const url = cluster('start');
        const config = loadConfig({ DATABASE_URL: url, EMBEDDING_PROVIDER: 'local', ...jobsOff }, { homeDir: '/tmp' }).config;
        const store = await open(config, 'restart-victim');
        const total = 3_000;
        await resetAndSeed(store, total);
        const job = await store.reindexJobs.enqueue(checkReindexRequest({ batchSize: 25 }), 'test');
        const runner = runnerFor(store, 'restart');
        const running = runner.runOnce();
        await untilProcessed(store, job.jobId, 200);
        cluster('stop');
        cluster('start');
        expect(await running).toBe(true);
        expect(await jobRow(store, job.jobId)).toMatchObject({
          state: 'completed',
          attempts: 1,
          progress: { processed: total, indexed: total, failed: 0, cursor: null },
        });
        expect(await unembedded(store)).toBe(0);
      } finally {
        for (const store of opened.splice(0)) await store.close();
        try {
          cluster('stop');
        } finally {
          rmSync(clusterDir, { recursive: true, force: true });
        }
      }
    },
  );
});
