import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { verifies } from '../../../packages/core/test/requirements.js';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase } from '../../../tooling/vitest/test-databases.ts';
import { startHttpServer } from './support/server-process.js';

const JOB_FINISHED = /"msg":"(expired short-term memories swept|short-term promotion pass finished|expired auth records swept)"/;

/** A tool call posted whole on its own connection; `answer` rejects when the connection is cut. */
function callTool(url: string, id: number, name: string, args: Record<string, unknown>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${url}/mcp`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    });
    outgoing.on('error', reject);
    outgoing.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', reject);
    });
    outgoing.end(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }));
  });
}

/** A connection that has sent the start of a request and nothing more (a slow or stalled client). */
function halfSentRequest(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write('POST /mcp HTTP/1.1\r\nHost: x\r\n');
      resolve(socket);
    });
    // The server cuts it at the deadline: that is the point.
    socket.on('error', () => undefined);
  });
}

/** The log lines after the first one matching `marker`. */
function linesAfter(log: string, marker: string): string[] {
  const lines = log.split('\n');
  const at = lines.findIndex((line) => line.includes(marker));
  return at < 0 ? [] : lines.slice(at + 1);
}

describe('shutdown starts no job [pglite]', () => {
  it(verifies(
    'R-SHUTDOWN-NO-NEW-JOB',
    'jobs due every 50 ms: none starts after "shutting down", while a stalled request holds the stop',
  ), async () => {
    const server = await startHttpServer({
      DATABASE_URL: 'pglite://memory',
      DEPLOYMENT_PROFILE: 'lite',
      LOG_LEVEL: 'debug',
      STM_SWEEP_INTERVAL_MS: '50',
      STM_CONSOLIDATION_INTERVAL_MS: '50',
      AUTH_STORE_SWEEP_INTERVAL_MS: '50',
    });
    let stalled: Socket | undefined;
    try {
      await expect.poll(() => (server.stderr().match(new RegExp(JOB_FINISHED, 'g')) ?? []).length, { timeout: 30_000 }).toBeGreaterThan(3);
      // Keeps the stop busy for a while: the jobs, due all along, must not run meanwhile.
      stalled = await halfSentRequest(server.url);
      const exitCode = await server.stop();
      const after = linesAfter(server.stderr(), 'shutting down');
      expect(after.length, server.stderr().slice(-4_000)).toBeGreaterThan(0);
      expect(after.filter((line) => line.includes('"scheduled job started"'))).toEqual([]);
      // At most the runs already going at SIGTERM end after it: one per job.
      expect(after.filter((line) => JOB_FINISHED.test(line)).length).toBeLessThanOrEqual(3);
      expect(exitCode).toBe(0);
    } finally {
      stalled?.destroy();
      await server.stop();
    }
  }, 90_000);
});

describe('an acknowledged write survives the stop [pglite directory]', () => {
  it(verifies('R-SHUTDOWN-ACKED-WRITE', 'every create answered before or during the stop is read back after a restart'), async () => {
    const directory = mkdtempSync(join(tmpdir(), 'memsvc-shutdown-'));
    const env = { DATABASE_URL: `pglite://${join(directory, 'data')}`, DEPLOYMENT_PROFILE: 'lite', MEMSVC_DEFAULT_USER_ID: 'stopper' };
    try {
      const server = await startHttpServer(env);
      const calls = Array.from({ length: 8 }, (_, i) =>
        callTool(server.url, i, 'create_memory', { content: `acknowledged fact ${i} about the lighthouse`, type: 'long-term' }).catch(
          () => undefined,
        ),
      );
      // SIGTERM while the calls are being served; some may be answered, some cut.
      await calls[0];
      const exit = server.stop();
      const answers = await Promise.all(calls);
      expect(await exit).toBe(0);
      const acknowledged = answers.filter((answer) => answer?.status === 200 && !answer.body.includes('"isError":true'));
      expect(acknowledged.length).toBeGreaterThan(0);

      const reopened = await startHttpServer(env);
      try {
        const listed = await callTool(reopened.url, 99, 'list_memories', { limit: 50 });
        // A write's answer names its memory by id (write results are lean: no content).
        for (const answer of acknowledged) {
          const id = /\\?"memory\\?":\{\\?"id\\?":\\?"([0-9a-f-]{36})/.exec(answer?.body ?? '')?.[1];
          expect(id, answer?.body).toBeDefined();
          expect(listed.body).toContain(id);
        }
        expect(listed.body).toMatch(/acknowledged fact \d+ about the lighthouse/);
      } finally {
        await reopened.stop();
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('a request still running at the deadline [postgres]', () => {
  const pgUrl = inject('pgvectorTestUrl');
  it.skipIf(!pgUrl)(
    verifies(
      'R-SHUTDOWN-ABANDON-RETRYABLE',
      'MEMSVC_SHUTDOWN_TIMEOUT_MS=4000 and a call blocked on a lock: the server exits in time, the call gets no answer and its write rolls back (skipped only without a real PostgreSQL)',
    ),
    async () => {
      const database = await createTestDatabase(pgUrl ?? '', 'memsvc_stop_deadline');
      const server = await startHttpServer({ DATABASE_URL: database.url, DEPLOYMENT_PROFILE: 'lite', MEMSVC_SHUTDOWN_TIMEOUT_MS: '4000' });
      const blocker = new pg.Client({ connectionString: database.url });
      await blocker.connect();
      try {
        await blocker.query('BEGIN');
        await blocker.query('LOCK TABLE memories IN ACCESS EXCLUSIVE MODE');
        const call = callTool(server.url, 1, 'create_memory', {
          userId: 'late',
          content: 'written past the deadline',
          type: 'long-term',
        }).then(
          (answer) => ({ answered: true, answer }),
          () => ({ answered: false, answer: undefined }),
        );
        await new Promise((resolve) => setTimeout(resolve, 500));
        const stopping = performance.now();
        const exitCode = await server.stop();
        expect(performance.now() - stopping, server.stderr().slice(-4_000)).toBeLessThan(7_000);
        expect([0, 1]).toContain(exitCode);
        expect((await call).answered).toBe(false);
        await blocker.query('COMMIT');
        // The server's session is gone: its transaction cannot commit now.
        await new Promise((resolve) => setTimeout(resolve, 500));
        const stored = await blocker.query("SELECT count(*)::int AS n FROM memories WHERE content = 'written past the deadline'");
        expect(stored.rows[0].n).toBe(0);
      } finally {
        await blocker.end().catch(() => undefined);
        await server.stop();
        await database.drop();
      }
    },
    60_000,
  );
});
