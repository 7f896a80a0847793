import { createMcpServer } from '@memsvc/mcp-tools';
import { createLogger, type MemsvcRuntime, openRuntime } from '@memsvc/runtime';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifies } from '../../../packages/core/test/requirements.js';
import { createHttpApp, HealthChecker, mcpToolDependencies, readServerConfig, SERVER_NAME, SERVER_VERSION } from '../src/index.js';
import { oauthRoutesOf } from '../src/oauth-server-of.js';

const METRICS_TOKEN = 'metrics-token-for-route-tests';
const API_KEY = 'api-key-for-route-tests';
const jsonRpc = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The server's HTTP app over a real runtime (in-memory PGlite), driven by Hono's app.request(). */
describe('HTTP routes in process (app.request)', () => {
  let runtime: MemsvcRuntime;
  let app: Hono;
  let draining = false;
  beforeAll(async () => {
    const { config } = readServerConfig(
      {
        DATABASE_URL: 'pglite://memory',
        DEPLOYMENT_PROFILE: 'standard',
        MCP_TRANSPORT: 'streamable-http',
        AUTH_REQUIRED: 'true',
        JWT_SECRET: 'j'.repeat(40),
        MEMSVC_API_KEY: API_KEY,
        METRICS_TOKEN,
        CORS_ALLOWED_ORIGINS: 'https://app.example.com',
        EMBEDDING_PROVIDER: 'local',
      },
      '/tmp',
    );
    const logger = createLogger('error', { write: () => undefined });
    runtime = await openRuntime(config, { applicationName: 'route-test', logger });
    const tools = mcpToolDependencies(runtime);
    app = createHttpApp({
      config,
      health: new HealthChecker(runtime.store, config.profile),
      metrics: runtime.metrics,
      logger,
      isShuttingDown: () => draining,
      createMcpServer: () => createMcpServer({ name: SERVER_NAME, version: SERVER_VERSION }, tools),
    });
  });
  afterAll(async () => {
    await runtime?.close();
  });

  it('reports health with its three indicators, and readiness fails (closing connections) while draining', async () => {
    const health = await app.request('/health');
    expect(health.status).toBe(200);
    const report = (await health.json()) as { status: string; indicators: Record<string, { status: string }> };
    expect(report.status).toBe('ok');
    expect(Object.keys(report.indicators).sort()).toEqual(['database', 'memory-store', 'pgvector']);
    expect((await app.request('/health/ready')).status).toBe(200);
    draining = true;
    try {
      const ready = await app.request('/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.headers.get('connection')).toBe('close');
      expect(await ready.json()).toMatchObject({
        status: 'error',
        reason: 'shutting down',
        indicators: { 'memory-store': { status: 'up' }, database: { status: 'up' }, pgvector: { status: 'up' } },
      });
    } finally {
      draining = false;
    }
  });

  it('without OAUTH_REDIRECT_BASE_URL there is no authorization server: no metadata, and a 401 says only Bearer', async () => {
    expect(oauthRoutesOf(runtime, createLogger('error', { write: () => undefined }), true, undefined)).toBeUndefined();
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server', '/oauth/register']) {
      expect((await app.request(path)).status, path).toBe(404);
    }
  });

  it('serves metrics only with METRICS_TOKEN, as Prometheus text', async () => {
    const refused = await app.request('/health/metrics');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect((await app.request('/health/metrics', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const scraped = await app.request('/health/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await scraped.text()).toContain('memsvc_deployment_profile_info{profile="standard"} 1');
  });

  it('refuses MCP without the key or with a wrong one, and serves it with the key', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const missing = await app.request('/mcp', { method: 'POST', headers: jsonRpc, body: ping });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(((await missing.json()) as { error: { code: number } }).error.code).toBe(-32001);
    const wrong = await app.request('/mcp', { method: 'POST', headers: { ...jsonRpc, authorization: 'Bearer nope' }, body: ping });
    expect(wrong.status).toBe(401);
    const served = await app.request('/mcp', { method: 'POST', headers: { ...jsonRpc, authorization: `Bearer ${API_KEY}` }, body: ping });
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('answers a malformed, oversize or non-JSON MCP body with a clear error, and unknown routes with 404', async () => {
    const headers = { ...jsonRpc, authorization: `Bearer ${API_KEY}` };
    const malformed = await app.request('/mcp', { method: 'POST', headers, body: '{"jsonrpc": "2.0", "id": 1, "method": ' });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', params: { pad: 'x'.repeat(4 * 1024 * 1024) } });
    const huge = await app.request('/mcp', { method: 'POST', headers: { ...headers, 'content-length': String(body.length) }, body });
    expect(huge.status).toBe(413);
    const text = await app.request('/mcp', { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: 'ping' });
    expect(text.status).toBe(415);
    const nowhere = await app.request('/nowhere');
    expect(nowhere.status).toBe(404);
    expect(await nowhere.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('answers CORS preflights for the allowed origin only', async () => {
    const preflight = (origin: string) =>
      app.request('/mcp', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
    expect((await preflight('https://app.example.com')).headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect((await preflight('https://evil.example.com')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it(
    verifies('R-ORIGIN-CONFIGURED', 'refuses a foreign Host or Origin on every way in with 403 naming the setting, before authentication'),
    async () => {
      const initialize = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'rebinding', version: '0' } },
      });
      const rebound = { host: 'evil.example.com', origin: 'http://evil.example.com' };
      const mcp = await app.request('/mcp', { method: 'POST', headers: { ...jsonRpc, ...rebound }, body: initialize });
      expect(mcp.status).toBe(403);
      expect(await mcp.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { message: expect.stringContaining('MEMSVC_ALLOWED_HOSTS') },
      });
      for (const path of ['/health', '/health/metrics', '/auth/providers', '/auth/session', '/no-such-route']) {
        const response = await app.request(path, { headers: rebound });
        expect(response.status, path).toBe(403);
        expect(await response.json(), path).toMatchObject({
          error: { code: 'FORBIDDEN', message: expect.stringContaining('evil.example.com') },
        });
      }
      // A page of another origin, on the server's own name: refused, with the CORS setting named.
      const page = await app.request('/mcp', {
        method: 'POST',
        headers: { ...jsonRpc, host: 'localhost', origin: 'https://evil.example.com' },
        body: initialize,
      });
      expect(page.status).toBe(403);
      expect(((await page.json()) as { error: { message: string } }).error.message).toContain('CORS_ALLOWED_ORIGINS');
      // The allowed page and an agent without Origin reach authentication (no key: 401).
      for (const headers of [{ host: 'localhost', origin: 'https://app.example.com' }, { host: '10.1.2.3:3000' }, {}] as Record<
        string,
        string
      >[]) {
        const reached = await app.request('/mcp', { method: 'POST', headers: { ...jsonRpc, ...headers }, body: initialize });
        expect(reached.status, JSON.stringify(headers)).toBe(401);
      }
    },
  );
});
