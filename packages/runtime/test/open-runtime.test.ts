import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@memsvc/config';
import { toTenantId } from '@memsvc/core';
import { describe, expect, it } from 'vitest';
import { childProcessTestEnv } from '../../../tooling/vitest/child-process-env.ts';
import { createLogger, openRuntime } from '../src/index.js';

const logger = createLogger('error');

/** A runtime on an embedded directory under `home`, as a process started with `env` opens it. */
function openOnDirectory(home: string) {
  return (env: Record<string, string>) =>
    openRuntime(
      loadConfig(
        { ...childProcessTestEnv(), DATABASE_URL: `pglite://${join(home, 'db')}`, STM_SWEEP_INTERVAL_MS: '0', ...env },
        { homeDir: home },
      ).config,
      { applicationName: 'runtime-test', logger },
    );
}

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

  it('names the provider a directory was made with when an agent starts on it without that setting (the default, Ollama)', async () => {
    const home = await mkdtemp(join(tmpdir(), 'memsvc-runtime-'));
    const open = openOnDirectory(home);
    try {
      await (await open({ EMBEDDING_PROVIDER: 'local' })).close();
      const forgotten = open({ EMBEDDING_PROVIDER: 'ollama', OLLAMA_URL: 'http://127.0.0.1:9' });
      await expect(forgotten).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH' });
      await expect(forgotten).rejects.toThrow(
        /made with memsvc-local-v1, 384 dimensions, but this process embeds with nomic-embed-text, 768 dimensions\. To use the database as it is, start with EMBEDDING_PROVIDER=local VECTOR_DIMENSIONS=384\./,
      );
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('opens a database of another model’s vectors when openai has no key (generation disabled, no error); a VECTOR_DIMENSIONS pin is still held', async () => {
    const home = await mkdtemp(join(tmpdir(), 'memsvc-runtime-'));
    const open = openOnDirectory(home);
    const me = { tenant: toTenantId('alice'), actor: { id: 'test' } };
    try {
      const local = await open({ EMBEDDING_PROVIDER: 'local' });
      const before = await local.engine.create(me, { tier: 'ltm', content: 'The staging database lives in Frankfurt' });
      expect(before.embedded).toBe(true);
      await local.close();

      const keyless = await open({ EMBEDDING_PROVIDER: 'openai' });
      try {
        expect(keyless.provider).toBe('disabled');
        const after = await keyless.engine.create(me, { tier: 'ltm', content: 'The production database lives in Dublin' });
        expect(after.embedded).toBe(false);
        const found = (await keyless.engine.recall(me, { query: 'where does the database live?' })).results.map((r) => r.memory.id);
        expect(found.sort()).toEqual([before.memory.id, after.memory.id].sort());
      } finally {
        await keyless.close();
      }

      const mismatch = open({ EMBEDDING_PROVIDER: 'openai', VECTOR_DIMENSIONS: '1536' });
      await expect(mismatch).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH' });
      // The advice names what made the directory, so a forgotten variable is put back, not "fixed" by a reindex.
      await expect(mismatch).rejects.toThrow(
        /made with memsvc-local-v1, 384 dimensions.*start with EMBEDDING_PROVIDER=local VECTOR_DIMENSIONS=384/,
      );
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
