import { loadConfig } from '@memsvc/config';
import { DECAY_JOB, toTenantId } from '@memsvc/core';
import { ManualClock, ManualTimers } from '@memsvc/core/testing';
import { LocalEmbedder } from '@memsvc/embeddings';
import { openStore } from '@memsvc/store-pg';
import { describe, expect, it } from 'vitest';
import { testTemplates } from '../../../tooling/vitest/test-templates.ts';
import { createLogger, createMaintenance, type JobRunReport, Scheduler } from '../src/index.js';

describe('Scheduler on a fake clock (PGlite)', () => {
  it('ticks on its interval, never twice within one, and reports a failing run without stopping', async () => {
    const clock = new ManualClock('2026-05-01T09:00:00.000Z');
    const timers = new ManualTimers(clock);
    const store = await openStore({ database: 'pglite://memory', clock, ...testTemplates() });
    const { config } = loadConfig({ DATABASE_URL: 'pglite://memory' }, { homeDir: '/h' });
    const runs: JobRunReport[] = [];
    const logged: string[] = [];
    const scheduler = new Scheduler({
      jobs: [{ name: 'stm-promotion', intervalMs: 1000, enabled: true }],
      jobRuns: store.jobRuns,
      maintenance: createMaintenance({ store, embedder: new LocalEmbedder(), config, clock }),
      logger: createLogger('error', { write: (line: string) => void logged.push(line) }),
      firstTickMs: 0,
      timers,
      clock,
      onRun: (report) => runs.push(report),
    });
    try {
      scheduler.start();
      timers.advance(0);
      await scheduler.idle();
      expect(runs).toHaveLength(1);
      // Half an interval later the job is not due, whoever asks.
      timers.advance(500);
      expect(await store.jobRuns.runExclusive('stm-promotion', 1000, async () => 'success')).toEqual({ ran: false, reason: 'not-due' });
      expect(timers.advance(499)).toBe(0);
      expect(timers.advance(1)).toBe(1);
      await scheduler.idle();
      expect(runs.map((run) => run.startedAt - Date.parse('2026-05-01T09:00:00.000Z'))).toEqual([0, 1000]);
      expect(runs.every((run) => run.ok)).toBe(true);

      // A database that fails: the run is reported failed and the next tick is still scheduled.
      await store.connection.db.schema.dropTable('scheduler_state').cascade().execute();
      timers.advance(1000);
      await scheduler.idle();
      expect(runs.at(-1)).toMatchObject({ ok: false });
      expect(logged.join('')).toContain('scheduled job failed');
      expect(timers.pending).toBe(1);
    } finally {
      await scheduler.stop();
      await store.close();
    }
  });
});

describe('Scheduler shutdown during a long decay pass (PGlite)', () => {
  it('stops the pass after the batch in hand; the next pass resumes from its cursor and covers the rest', async () => {
    const clock = new ManualClock('2026-05-01T09:00:00.000Z');
    const timers = new ManualTimers(clock);
    const store = await openStore({ database: 'pglite://memory', clock, ...testTemplates() });
    const { config } = loadConfig({ DATABASE_URL: 'pglite://memory', MEMORY_DECAY_BATCH_SIZE: '1' }, { homeDir: '/h' });
    const maintenance = createMaintenance({ store, embedder: new LocalEmbedder(), config, clock });
    const total = 40;
    for (let i = 0; i < total; i++)
      await store.memories.insertAsGiven(toTenantId('alice'), { tier: 'ltm', content: `fact number ${i}` }, { id: 'test' });
    const logged: string[] = [];
    const scheduler = new Scheduler({
      jobs: [{ name: 'ltm-decay', intervalMs: 86_400_000, enabled: true }],
      jobRuns: store.jobRuns,
      maintenance,
      logger: createLogger('info', { write: (line: string) => void logged.push(line) }),
      firstTickMs: 0,
      timers,
      clock,
    });
    try {
      scheduler.start();
      timers.advance(0);
      // Stop once the pass has saved its position at least once.
      for (let wait = 0; wait < 5_000 && (await store.lifecycle.jobCursor(DECAY_JOB)) === undefined; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await scheduler.stop();
      const line = logged
        .map((entry) => JSON.parse(entry) as { msg: string; scanned?: number })
        .find((entry) => entry.msg.startsWith('decay scan'));
      expect(line?.msg).toBe('decay scan stopped for shutdown; the next pass resumes');
      const scannedBefore = line?.scanned ?? 0;
      expect(scannedBefore).toBeGreaterThan(0);
      expect(scannedBefore).toBeLessThan(total);
      expect((await store.jobRuns.history()).find((run) => run.job === 'ltm-decay')?.lastStatus).toBe('stopped');
      const rest = await maintenance.decayScan();
      expect(rest).toMatchObject({ completed: true, scanned: total - scannedBefore });
    } finally {
      await scheduler.stop();
      await store.close();
    }
  });
});
