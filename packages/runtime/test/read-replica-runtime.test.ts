import { createServer } from 'node:net';
import { loadConfig } from '@memsvc/config';
import { toTenantId } from '@memsvc/core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../tooling/vitest/test-databases.ts';
import { createLogger, HealthChecker, openRuntime } from '../src/index.js';

// The runtime's part of DATABASE_READ_URL (metrics, log lines, /health) with a standby that is
// down from the start; a live standby is covered by store-pg's and the server's suites.
const pgvectorTestUrl = inject('pgvectorTestUrl');
const describePostgres = pgvectorTestUrl ? describe : describe.skip;
const skipReason = pgvectorTestUrl ? '' : ' (SKIPPED: no real PostgreSQL — run tooling/scripts/pg-local.sh or set PGVECTOR_TEST_URL)';

async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describePostgres(`the runtime with a read replica${skipReason}`, () => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of databases.splice(0)) await database.drop();
  });

  it('R-REPLICA-FALLBACK: a standby down at boot: the runtime starts, warns once without the password, counts reads on the primary, /health stays ok', async () => {
    const database = await createTestDatabase(pgvectorTestUrl ?? '', 'memsvc_runtime_replica');
    databases.push(database);
    const standby = new URL(database.url);
    standby.port = String(await unusedPort());
    standby.password = 'pw-never-logged';
    const { config } = loadConfig(
      { DATABASE_URL: database.url, DATABASE_READ_URL: standby.toString(), EMBEDDING_PROVIDER: 'local' },
      { homeDir: '/h' },
    );
    let logged = '';
    const logger = createLogger('info', {
      write: (line: string) => {
        logged += line;
      },
    });
    const runtime = await openRuntime(config, { applicationName: 'replica-runtime-test', logger });
    try {
      const me = { tenant: toTenantId('alice'), actor: { id: 'test' } };
      await runtime.engine.create(me, { tier: 'ltm', content: 'The ladder is in the attic' });
      expect((await runtime.engine.recall(me, { query: 'ladder' })).results).toHaveLength(1);

      const warnings = logged
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { level: string; msg: string; replica?: string; component?: string })
        .filter((line) => line.component === 'read-replica');
      expect(warnings).toEqual([
        expect.objectContaining({
          level: 'warn',
          msg: expect.stringMatching(/^the read replica serves no reads: it does not answer: .*ECONNREFUSED/),
          replica: expect.stringContaining(':*****@127.0.0.1:'),
        }),
      ]);
      expect(logged).not.toContain('pw-never-logged');

      const metrics = await runtime.metrics.registry.metrics();
      expect(metrics).toContain('memsvc_replica_reads_total{target="primary",reason="unavailable"} 1');
      expect(metrics).toContain('memsvc_replica_state{state="unavailable"} 1');
      expect(metrics).toMatch(/^memsvc_replica_lag_seconds nan$/im);

      const report = await new HealthChecker(runtime.store, config.profile).check();
      expect(report.status).toBe('ok');
      expect(report.indicators['database-replica']).toEqual({ status: 'down', state: 'unavailable', error: 'not answering' });
    } finally {
      await runtime.close();
    }
  });
});
