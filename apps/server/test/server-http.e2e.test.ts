import { Agent, get as httpGet, request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifies } from '../../../packages/core/test/requirements.js';
import { type ServerProcess, startHttpServer } from './support/server-process.js';

const SPEC_METRICS = [
  'memsvc_vector_backend_info{backend="pgvector"} 1',
  'memsvc_pgvector_ready 1',
  'memsvc_deployment_profile_info{profile="lite"} 1',
  '# TYPE memsvc_memory_operations_total counter',
  '# TYPE memsvc_memory_operation_duration_seconds histogram',
  '# TYPE memsvc_memories_promoted_total counter',
  '# TYPE memsvc_consolidation_runs_total counter',
  '# TYPE memsvc_reindex_operations_total counter',
  '# TYPE memsvc_active_mcp_sessions gauge',
  '# TYPE memsvc_agent_memory_operations_total counter',
  '# TYPE process_cpu_user_seconds_total counter',
];

describe('memsvc-server over streamable HTTP (lite, embedded database)', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startHttpServer({
      DATABASE_URL: 'pglite://memory',
      DEPLOYMENT_PROFILE: 'lite',
      CORS_ALLOWED_ORIGINS: 'https://app.example.com',
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves MCP at /mcp: lists tools and answers ping, as an SDK client sees it', async () => {
    const client = new Client({ name: 'e2e', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain('ping');
    const pong = await client.callTool({ name: 'ping', arguments: {} });
    expect(pong.structuredContent).toMatchObject({ status: 'pong' });
    expect(Date.parse((pong.structuredContent as { timestamp: string }).timestamp)).toBeGreaterThan(Date.now() - 60_000);
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} });
    expect(unknown.isError).toBe(true);
    await client.close();
  });

  it("keeps an idle keep-alive connection open past Node's 5 s default, and says so in Keep-Alive", async () => {
    // A request sent on an idle connection while PGlite holds the server's event loop must be
    // read, not reset by the keep-alive timer (start-server.ts): the timeout is 65 s.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ reused: boolean; keepAlive: string | undefined }>((resolve, reject) => {
        const call = httpGet(`${server.url}/health`, { agent }, (response) => {
          response.resume();
          response.on('end', () => resolve({ reused: call.reusedSocket, keepAlive: response.headers['keep-alive']?.toString() }));
        });
        call.on('error', reject);
      });
    try {
      expect(await get()).toEqual({ reused: false, keepAlive: 'timeout=65' });
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(await get()).toEqual({ reused: true, keepAlive: 'timeout=65' });
    } finally {
      agent.destroy();
    }
  }, 20_000);

  it('reports health and readiness with the three indicators of spec §4.1', async () => {
    for (const path of ['/health', '/health/ready']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { status: string; indicators: Record<string, { status: string }> };
      expect(body.status).toBe('ok');
      expect(Object.keys(body.indicators).sort()).toEqual(['database', 'memory-store', 'pgvector']);
      expect(body.indicators).toMatchObject({
        'memory-store': { status: 'up', pid: server.child.pid },
        database: { status: 'up', engine: 'pglite' },
        pgvector: { status: 'up', version: expect.stringMatching(/^0\.\d+\.\d+$/) },
      });
    }
  });

  it('exposes every always-emitted metric and the operation metrics with their exact names', async () => {
    const response = await fetch(`${server.url}/health/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    for (const line of SPEC_METRICS) expect(text).toContain(line);
  });

  it('answers malformed JSON-RPC and oversize bodies with clear errors, and keeps serving', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const malformed = await fetch(`${server.url}/mcp`, { method: 'POST', headers, body: '{"jsonrpc": "2.0", "id": 1, "method": ' });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: number } }).error.code).toBe(-32700);

    const huge = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', params: { pad: 'x'.repeat(5 * 1024 * 1024) } }),
    });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { error: { message: string } }).error.message).toMatch(/exceeds 4194304 bytes/);

    // Chunked, with no Content-Length to refuse up front: counted while it streams.
    const megabyte = new TextEncoder().encode('x'.repeat(1024 * 1024));
    let megabytesSent = 0;
    const chunked = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers,
      body: new ReadableStream({
        pull(controller) {
          controller.enqueue(megabyte);
          if (++megabytesSent === 5) controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);

    // A body under the limit that is split across chunks still arrives whole.
    const split = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers,
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"jsonrpc": "2.0", "id": 3, '));
          controller.enqueue(new TextEncoder().encode('"method": "ping"}'));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(split.status).toBe(200);
    expect(((await split.json()) as { id: number; result: unknown }).id).toBe(3);

    const notJson = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/plain' },
      body: 'ping',
    });
    expect(notJson.status).toBe(415);

    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect((await fetch(`${server.url}/nowhere`)).status).toBe(404);
  });

  it('answers CORS preflights for allowed origins only', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/mcp`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    expect((await preflight('https://app.example.com')).headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect((await preflight('https://evil.example.com')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it(
    verifies('R-ORIGIN-LOOPBACK', 'bound to loopback: a rebound name, a foreign page, Origin null or another port gets 403 and no memory'),
    async () => {
      const port = Number(new URL(server.url).port);
      // node:http, not fetch: the Host header is the attack, and fetch writes its own.
      const post = (headers: Record<string, string>, body: unknown) =>
        new Promise<{ status: number; text: string }>((resolve, reject) => {
          const call = httpRequest(
            {
              host: '127.0.0.1',
              port,
              path: '/mcp',
              method: 'POST',
              headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
            },
            (response) => {
              let text = '';
              response.setEncoding('utf8');
              response.on('data', (chunk: string) => {
                text += chunk;
              });
              response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
            },
          );
          call.on('error', reject);
          call.end(JSON.stringify(body));
        });
      const listMemories = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_memories', arguments: {} } };
      const initialize = {
        jsonrpc: '2.0',
        id: 3,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e', version: '0' } },
      };
      for (const headers of [
        { host: 'evil.example.com', origin: 'http://evil.example.com' },
        { host: `evil.example.com:${port}` },
        { host: `localhost:${port === 5432 ? 5433 : 5432}` },
        { host: `127.0.0.1:${port}`, origin: 'null' },
        { host: `127.0.0.1:${port}`, origin: 'https://evil.example.com' },
      ] as Record<string, string>[]) {
        const refused = await post(headers, listMemories);
        expect(refused.status, JSON.stringify(headers)).toBe(403);
        expect(refused.text).not.toContain('memories');
      }
      // The Node adapter itself answers 400 to a Host not in canonical (lower) case: refused too.
      expect((await post({ host: `LocalHost:${port}` }, initialize)).status).toBe(400);
      for (const headers of [
        { host: `localhost:${port}` },
        { host: `[::1]:${port}`, origin: `http://localhost:${port}` },
        { host: `127.0.0.1:${port}`, origin: 'http://127.0.0.1:5173' },
      ] as Record<string, string>[]) {
        const accepted = await post(headers, initialize);
        expect(accepted.status, `${JSON.stringify(headers)} ${accepted.text}`).toBe(200);
      }
    },
  );

  it('logs JSON to stderr only', () => {
    const lines = server.stderr().trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });
});
