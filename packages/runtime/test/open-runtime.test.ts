import { loadConfig, toTenantId } from '@memsvc/core';
import { describe, expect, it } from 'vitest';
import { createLogger, openRuntime } from '../src/index.js';

const logger = createLogger('error');

describe('openRuntime (the composition root)', () => {
  it('composes a working engine over the configured database, with metrics and maintenance, and one close()', async () => {
    const { config } = loadConfig(
      { DATABASE_URL: 'pglite://memory', EMBEDDING_PROVIDER: 'local', STM_SWEEP_INTERVAL_MS: '0' },
      { homeDir: '/h' },
    );
    const runtime = await openRuntime(config, { applicationName: 'runtime-test', logger });
    expect(runtime.provider).toBe('local');
    const me = { tenant: toTenantId('alice'), actor: { id: 'test' } };
    const created = await runtime.engine.create(me, { tier: 'ltm', content: 'Alice keeps the deploy keys in the vault' });
    expect(created.outcome).toBe('created');
    expect((await runtime.engine.recall(me, { query: 'deploy keys' })).results[0]?.memory.id).toBe(created.memory.id);
    const scrape = await runtime.metrics.registry.metrics();
    expect(scrape).toContain('memsvc_pgvector_ready 1');
    expect(scrape).toContain('memsvc_embedding_requests_total');

    const jobs = runtime.startJobs({ unref: true });
    expect(jobs.scheduler).toBeDefined();
    expect(() => runtime.startJobs()).toThrow(/already running/);
    await Promise.all([runtime.close(), runtime.close()]);
    await expect(runtime.engine.get(me, created.memory.id)).rejects.toThrow();
    expect(() => runtime.startJobs()).toThrow(/closed/);
  });

  it('asks the caller’s probe whether pgvector answers, when given one', async () => {
    const { config } = loadConfig({ DATABASE_URL: 'pglite://memory' }, { homeDir: '/h' });
    let asked = 0;
    const runtime = await openRuntime(config, {
      applicationName: 'runtime-test',
      logger,
      readPgvector: async () => {
        asked++;
        return false;
      },
    });
    try {
      expect(await runtime.metrics.registry.metrics()).toContain('memsvc_pgvector_ready 0');
      expect(asked).toBe(1);
    } finally {
      await runtime.close();
    }
  });
});
