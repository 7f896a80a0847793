import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { type StandbyCluster, startStandby } from '../../../tooling/vitest/replica-cluster.ts';
import { runUntilExit, startHttpServer } from './support/server-process.js';
import { call } from './support/tool-calls.js';
import { inProcessConnection } from './support/tool-connections.js';

// memsvc with DATABASE_READ_URL on the shared hot standby of tooling/scripts/pg-local.sh (this
// file never pauses or promotes it), through the server's own composition and its tools.
const standby = await startStandby(inject('pgvectorTestUrl'));
const describeWithStandby = standby.ok ? describe : describe.skip;
const skipReason = standby.ok ? '' : ` (SKIPPED: ${standby.reason})`;
const cluster = standby.ok ? standby.cluster : (undefined as unknown as StandbyCluster);

/** The value of one series in a Prometheus text exposition, 0 when absent. */
function sample(metrics: string, series: string): number {
  const line = metrics.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** Calls `until` every 100 ms until it holds (the monitor checks the standby every second). */
async function eventually(until: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await until())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const REPLICA_READ = 'memsvc_replica_reads_total{target="replica",reason="caught-up"}';
const RECENT_WRITE = 'memsvc_replica_reads_total{target="primary",reason="recent-write"}';

describeWithStandby(`read replica end to end${skipReason}`, () => {
  afterAll(async () => {
    await cluster.dropDatabases();
  });

  it('R-REPLICA-ROUTE, R-REPLICA-RYW: tools over the SDK transport — the writer reads its write at once, recall moves to the standby', async () => {
    const urls = await cluster.freshDatabase('memsvc_e2e_replica');
    const connection = await inProcessConnection({
      DATABASE_URL: urls.primary,
      DATABASE_READ_URL: urls.standby,
      DEPLOYMENT_PROFILE: 'lite',
    });
    try {
      const { client } = connection;
      const created = await call(client, 'create_memory', {
        userId: 'alice',
        content: 'The canoe paddles hang in the shed',
        type: 'long-term',
      });
      expect(created.isError).toBe(false);
      const memoryId = created.body.memory.id;

      // Straight after the write the memory is there: read from the primary (the standby may not
      // have it yet), or — if a check has already seen the standby replay it — from the standby.
      const first = await call(client, 'recall', { userId: 'alice', query: 'canoe paddles' });
      expect(JSON.stringify(first.body)).toContain('The canoe paddles hang in the shed');
      const afterFirst = await connection.metricsText();
      expect(sample(afterFirst, RECENT_WRITE) + sample(afterFirst, REPLICA_READ)).toBe(1);

      // Once the standby has replayed the write and a check has seen it, recall is served there.
      await eventually(async () => {
        const again = await call(client, 'recall', { userId: 'alice', query: 'canoe paddles' });
        expect(JSON.stringify(again.body)).toContain('The canoe paddles hang in the shed');
        return sample(await connection.metricsText(), REPLICA_READ) > 0;
      });
      const listed = await call(client, 'list_memories', { userId: 'alice' });
      expect(JSON.stringify(listed.body)).toContain('The canoe paddles hang in the shed');
      // get_memory counts the access: it runs on the primary and works.
      const got = await call(client, 'get_memory', { userId: 'alice', memoryId });
      expect(got.isError).toBe(false);

      const metrics = await connection.metricsText();
      expect(sample(metrics, 'memsvc_replica_state{state="ready"}')).toBe(1);
      expect(sample(metrics, 'memsvc_replica_lag_seconds')).toBeLessThan(10);
      expect(connection.logText()).not.toMatch(/read replica serves no reads/);
    } finally {
      await connection.close();
    }
  });

  it('R-REPLICA-ROUTE: the server process reports the standby in /health and serves recall with it', async () => {
    const urls = await cluster.freshDatabase('memsvc_e2e_replica');
    const server = await startHttpServer({ DATABASE_URL: urls.primary, DATABASE_READ_URL: urls.standby, DEPLOYMENT_PROFILE: 'lite' });
    const client = new Client({ name: 'e2e', version: '0.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
      expect(
        (await call(client, 'create_memory', { userId: 'bob', content: 'Bob keeps the tent pegs in the blue box', type: 'long-term' }))
          .isError,
      ).toBe(false);
      const health = (await (await fetch(`${server.url}/health`)).json()) as { status: string; indicators: Record<string, unknown> };
      expect(health.status).toBe('ok');
      expect(health.indicators['database-replica']).toMatchObject({ status: 'up', state: 'ready' });
      await eventually(async () => {
        await call(client, 'recall', { userId: 'bob', query: 'tent pegs' });
        return sample(await (await fetch(`${server.url}/health/metrics`)).text(), REPLICA_READ) > 0;
      });
    } finally {
      await client.close();
      await server.stop();
    }
  });

  it('R-REPLICA-PROMOTED: refuses to start with the primary as DATABASE_READ_URL, naming the variable and never the password', async () => {
    const urls = await cluster.freshDatabase('memsvc_e2e_replica');
    const withPassword = new URL(urls.primary);
    withPassword.password = 'pw-never-logged';
    const run = await runUntilExit({ DATABASE_URL: urls.primary, DATABASE_READ_URL: withPassword.toString(), DEPLOYMENT_PROFILE: 'lite' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/memsvc could not start: DATABASE_READ_URL names a server that is not a hot standby/);
    expect(run.stderr).toContain('"code":"INVALID_CONFIG"');
    expect(run.stderr).not.toContain('pw-never-logged');
  });
});
