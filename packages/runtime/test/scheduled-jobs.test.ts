import { loadConfig } from '@memsvc/config';
import { describe, expect, it } from 'vitest';
import { scheduledJobs } from '../src/index.js';

describe('scheduledJobs', () => {
  it('runs the four default jobs at their spec intervals and leaves corpus consolidation off', () => {
    const { config } = loadConfig({ DATABASE_URL: 'pglite://memory' }, { homeDir: '/h' });
    expect(scheduledJobs(config)).toEqual([
      { name: 'stm-expiry-sweep', intervalMs: 600_000, enabled: true },
      { name: 'stm-promotion', intervalMs: 300_000, enabled: true },
      { name: 'auth-store-sweep', intervalMs: 900_000, enabled: true },
      { name: 'ltm-decay', intervalMs: 86_400_000, enabled: true },
      { name: 'corpus-consolidation', intervalMs: 0, enabled: false },
    ]);
  });

  it('treats an interval of 0 as disabled', () => {
    const { config } = loadConfig(
      { DATABASE_URL: 'pglite://memory', STM_SWEEP_INTERVAL_MS: '0', MEMORY_CONSOLIDATION_INTERVAL_MS: '60000' },
      { homeDir: '/h' },
    );
    const byName = Object.fromEntries(scheduledJobs(config).map((job) => [job.name, job.enabled]));
    expect(byName).toMatchObject({ 'stm-expiry-sweep': false, 'corpus-consolidation': true });
  });
});
