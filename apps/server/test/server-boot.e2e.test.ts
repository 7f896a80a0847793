import { request } from 'node:http';
import { createServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase } from '../../../tooling/vitest/test-databases.ts';
import { runUntilExit, serverBin, serverEnv, startHttpServer } from './support/server-process.js';

describe('memsvc-server boot rules (spec §7)', () => {
  it('refuses a multi-tenant streamable-HTTP server without auth, in every NODE_ENV, with exit code 2', async () => {
    for (const nodeEnv of ['development', 'production']) {
      const run = await runUntilExit({ DATABASE_URL: 'pglite://memory', MCP_TRANSPORT: 'streamable-http', NODE_ENV: nodeEnv });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/AUTH_REQUIRED: the standard \(multi-tenant\) profile will not serve MCP over streamable-http/);
    }
  });

  it("refuses a lite streamable-HTTP server with AUTH_REQUIRED=true but no key, with exit code 2 (the key acts as lite's default user)", async () => {
    const run = await runUntilExit({
      DATABASE_URL: 'pglite://memory',
      DEPLOYMENT_PROFILE: 'lite',
      MCP_TRANSPORT: 'streamable-http',
      AUTH_REQUIRED: 'true',
      JWT_SECRET: 'j'.repeat(40),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/MEMSVC_API_KEY: is required with AUTH_REQUIRED=true on the lite profile/);
    expect(run.stderr).not.toMatch(/MEMSVC_DEFAULT_USER_ID/);
  });

  it('refuses the removed memory profile and a missing DATABASE_URL, naming both', async () => {
    const run = await runUntilExit({ DEPLOYMENT_PROFILE: 'memory' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/DEPLOYMENT_PROFILE: the "memory" profile was removed/);
    expect(run.stderr).toMatch(/DATABASE_URL: is required/);
  });

  it('exits 1 with a clear log line when the database is unreachable, never printing the password', async () => {
    const run = await runUntilExit({ DATABASE_URL: 'postgres://memsvc:pw-never-logged@127.0.0.1:1/memsvc', DEPLOYMENT_PROFILE: 'lite' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/memsvc could not start: cannot reach PostgreSQL at postgres:\/\/memsvc:\*\*\*\*\*@127\.0\.0\.1:1/);
    expect(run.stderr).not.toContain('pw-never-logged');
  });
});

describe('memsvc-server over stdio', () => {
  it('speaks MCP on stdin/stdout with nothing else on stdout, even when the health port is taken', async () => {
    // Another process holds the port: stdio MCP must keep working without the health endpoints.
    const blocker = createServer();
    const port = await new Promise<number>((resolve) =>
      blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [serverBin],
      env: serverEnv({ DATABASE_URL: 'pglite://memory', PORT: String(port), HOST: '127.0.0.1' }),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    const client = new Client({ name: 'stdio-e2e', version: '0.0.0' });
    await client.connect(transport);
    expect((await client.callTool({ name: 'ping', arguments: {} })).structuredContent).toMatchObject({ status: 'pong' });
    await client.close();
    blocker.close();
    expect(stderr).toMatch(/health endpoints unavailable/);
  });
});

describe('memsvc-server security switches', () => {
  it('requires the bearer token on /health/metrics when METRICS_TOKEN is set', async () => {
    const server = await startHttpServer({
      DATABASE_URL: 'pglite://memory',
      DEPLOYMENT_PROFILE: 'lite',
      METRICS_TOKEN: 'metrics-secret-1',
    });
    try {
      const metrics = (authorization?: string) =>
        fetch(`${server.url}/health/metrics`, { headers: authorization ? { authorization } : {} });
      expect((await metrics()).status).toBe(401);
      expect((await metrics('Bearer wrong')).status).toBe(401);
      const ok = await metrics('Bearer metrics-secret-1');
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('memsvc_pgvector_ready 1');
    } finally {
      await server.stop();
    }
    expect(server.stderr()).not.toContain('metrics-secret-1');
  });

  it('with AUTH_REQUIRED=true refuses MCP calls without the key and serves them with it, for its configured tenant only', async () => {
    const server = await startHttpServer({
      DATABASE_URL: 'pglite://memory',
      AUTH_REQUIRED: 'true',
      JWT_SECRET: 'j'.repeat(40),
      MEMSVC_API_KEY: 'agent-key-123',
      MEMSVC_DEFAULT_USER_ID: 'team-a',
    });
    try {
      const refused = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer');
      const client = new Client({ name: 'authed', version: '0.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: 'Bearer agent-key-123' } },
        }),
      );
      expect((await client.callTool({ name: 'ping', arguments: {} })).isError).toBeFalsy();
      // The audit actor is the principal the credential established, not a name the caller typed.
      // The pre-shared key acts for MEMSVC_DEFAULT_USER_ID: a tenant named in the input is ignored.
      const created = await client.callTool({
        name: 'create_memory',
        arguments: { userId: 'team-b', content: 'Deploys freeze on Fridays', type: 'long-term' },
      });
      const memoryId = (created.structuredContent as { memory: { id: string } }).memory.id;
      const read = await client.callTool({ name: 'get_memory', arguments: { userId: 'team-b', memoryId } });
      expect((read.structuredContent as { memory: { userId: string } }).memory.userId).toBe('team-a');
      const audit = await client.callTool({ name: 'get_memory_audit', arguments: { userId: 'team-b', memoryId } });
      expect((audit.structuredContent as { entries: Array<{ actor: string }> }).entries.map((entry) => entry.actor)).toEqual([
        'shared-key',
      ]);
      await client.close();
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(server.stderr()).not.toContain('agent-key-123');
  });

  const pgUrl = inject('pgvectorTestUrl');
  it.skipIf(!pgUrl)(
    'reports 503 with the pgvector indicator down when the extension disappears (skipped only without a real PostgreSQL)',
    async () => {
      const database = await createTestDatabase(pgUrl ?? '', 'memsvc_health');
      const server = await startHttpServer({ DATABASE_URL: database.url, DEPLOYMENT_PROFILE: 'lite' });
      try {
        expect((await fetch(`${server.url}/health`)).status).toBe(200);
        const direct = new pg.Client({ connectionString: database.url });
        await direct.connect();
        await direct.query('DROP EXTENSION vector CASCADE');
        await direct.end();
        const response = await fetch(`${server.url}/health/ready`);
        expect(response.status).toBe(503);
        expect(await response.json()).toMatchObject({
          status: 'error',
          indicators: { database: { status: 'up' }, pgvector: { status: 'down' } },
        });
        expect(await (await fetch(`${server.url}/health/metrics`)).text()).toContain('memsvc_pgvector_ready 0');
      } finally {
        await server.stop();
        await database.drop();
      }
    },
  );
  it.skipIf(!pgUrl)(
    'reports 503 with the database indicator down while PostgreSQL refuses connections, and 200 again once it accepts them (skipped only without a real PostgreSQL)',
    async () => {
      const database = await createTestDatabase(pgUrl ?? '', 'memsvc_health');
      const name = new URL(database.url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: pgUrl ?? '' });
      await admin.connect();
      const server = await startHttpServer({ DATABASE_URL: database.url, DEPLOYMENT_PROFILE: 'lite' });
      try {
        expect((await fetch(`${server.url}/health`)).status).toBe(200);
        // The database goes away under the running server: new connections are refused and the
        // pool's open ones are killed.
        await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
        for (const path of ['/health', '/health/ready']) {
          const response = await fetch(`${server.url}${path}`);
          expect(response.status).toBe(503);
          expect(await response.json()).toMatchObject({
            status: 'error',
            indicators: { 'memory-store': { status: 'up' }, database: { status: 'down' }, pgvector: { status: 'down' } },
          });
        }
        expect(await (await fetch(`${server.url}/health/metrics`)).text()).toContain('memsvc_pgvector_ready 0');
        const during = new Client({ name: 'during-outage', version: '0.0.0' });
        await during.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
        const refused = await during.callTool({ name: 'recall', arguments: { userId: 'back', query: 'anything' } });
        expect(refused.isError).toBe(true);
        expect(refused.structuredContent).toMatchObject({ error: { code: 'STORAGE_UNAVAILABLE' } });
        await during.close();

        await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
        let status = 0;
        for (let tries = 0; tries < 100 && status !== 200; tries++) {
          if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 100));
          status = (await fetch(`${server.url}/health`)).status;
        }
        expect(status).toBe(200);
        const client = new Client({ name: 'after-outage', version: '0.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
        const created = await client.callTool({
          name: 'create_memory',
          arguments: { userId: 'back', content: 'written after the outage', type: 'long-term' },
        });
        expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
        await client.close();
      } finally {
        await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`).catch(() => undefined);
        await admin.end();
        // The server lived through the outage: it stops cleanly.
        expect(await server.stop()).toBe(0);
        await database.drop();
      }
    },
  );
});

describe('graceful shutdown', () => {
  it('finishes the calls in flight when SIGTERM arrives, then exits 0', async () => {
    const server = await startHttpServer({ DATABASE_URL: 'pglite://memory', DEPLOYMENT_PROFILE: 'lite' });
    const calls = Array.from({ length: 20 }, (_, i) =>
      postWhole(`${server.url}/mcp`, {
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: { name: 'create_memory', arguments: { userId: 'shutdown', content: `in flight ${i}`, type: 'long-term' } },
      }),
    );
    // SIGTERM only once every request is on a connected socket, written whole: those are the calls
    // a server must finish. (Waiting for the first answer instead raced the client's own connects
    // on a loaded machine.)
    // A connection the server drops says little by itself: the server's own log goes with it.
    const withServerLog = (error: unknown): never => {
      throw new Error(`${String(error)}; the server's log:\n${server.stderr().slice(-6_000)}`);
    };
    await Promise.all(calls.map((call) => call.sent)).catch(withServerLog);
    const exit = server.stop();
    const results = await Promise.all(calls.map((call) => call.answer)).catch(withServerLog);
    expect(results.map((result) => result.status)).toEqual(results.map(() => 200));
    expect(results.every((result) => !result.body.includes('"isError":true'))).toBe(true);
    expect(await exit).toBe(0);
    expect(server.stderr()).toMatch(/shutting down: finishing in-flight requests/);
  });
});

describe('graceful shutdown of a long call', () => {
  const pgUrl = inject('pgvectorTestUrl');
  it.skipIf(!pgUrl)(
    'answers a call still running 20 s after SIGTERM instead of cutting its connection while its work goes on (skipped only without a real PostgreSQL)',
    async () => {
      const database = await createTestDatabase(pgUrl ?? '', 'memsvc_drain');
      // A budget past the 22 s block: within MEMSVC_SHUTDOWN_TIMEOUT_MS a call in flight is answered.
      const server = await startHttpServer({ DATABASE_URL: database.url, DEPLOYMENT_PROFILE: 'lite', MEMSVC_SHUTDOWN_TIMEOUT_MS: '60000' });
      const blocker = new pg.Client({ connectionString: database.url });
      await blocker.connect();
      try {
        // The call waits on a lock the test holds for 22 s: past the default 10 s budget, well
        // within this one's 30 s for requests in flight.
        await blocker.query('BEGIN');
        await blocker.query('LOCK TABLE memories IN ACCESS EXCLUSIVE MODE');
        const call = postWhole(`${server.url}/mcp`, {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'create_memory', arguments: { userId: 'drain', content: 'written while draining', type: 'long-term' } },
        });
        await call.sent;
        await new Promise((resolve) => setTimeout(resolve, 500));
        const exit = server.stop();
        await new Promise((resolve) => setTimeout(resolve, 22_000));
        await blocker.query('COMMIT');
        const answer = await call.answer;
        expect(answer.status).toBe(200);
        // The write's lean result names the memory it stored (docs/tools.md#what-a-write-returns).
        expect(JSON.parse(answer.body).result.structuredContent).toMatchObject({ outcome: 'created', memory: { version: 1 } });
        expect(answer.body).not.toContain('"isError":true');
        expect(await exit).toBe(0);
        const stored = await blocker.query("SELECT count(*)::int AS n FROM memories WHERE content = 'written while draining'");
        expect(stored.rows[0].n).toBe(1);
      } finally {
        await blocker.end().catch(() => undefined);
        await server.stop();
        await database.drop();
      }
    },
    60_000,
  );
});

interface PostedCall {
  /** Resolves once the request is written whole to a connected socket. */
  readonly sent: Promise<void>;
  readonly answer: Promise<{ status: number; body: string }>;
}

/** POSTs one MCP message on its own connection, telling apart "sent" from "answered". */
function postWhole(url: string, message: unknown): PostedCall {
  let markSent!: () => void;
  let failSent!: (error: Error) => void;
  const sent = new Promise<void>((resolve, reject) => {
    markSent = resolve;
    failSent = reject;
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const outgoing = request(url, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
    });
    outgoing.on('finish', markSent);
    outgoing.on('error', (error) => {
      failSent(error);
      reject(error);
    });
    outgoing.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', reject);
    });
    outgoing.end(JSON.stringify(message));
  });
  return { sent, answer };
}
