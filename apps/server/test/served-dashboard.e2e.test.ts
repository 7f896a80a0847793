import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startHttpServer } from './support/server-process.js';

/**
 * MEMSVC_SERVE_DASHBOARD: the real memsvc-server process on an embedded database serves MCP and
 * the dashboard side by side, so what an agent writes over MCP is what the person sees.
 */
describe('memsvc-server with MEMSVC_SERVE_DASHBOARD (lite, embedded database)', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startHttpServer({
      DATABASE_URL: 'pglite://memory',
      DEPLOYMENT_PROFILE: 'lite',
      MEMSVC_SERVE_DASHBOARD: 'true',
      MEMSVC_DASHBOARD_DEV_AUTH: 'true',
      MEMSVC_DEFAULT_USER_ID: 'dev',
      EMBEDDING_PROVIDER: 'local',
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('shows under /dashboard what an agent stored over MCP, with the dashboard’s security headers', async () => {
    const client = new Client({ name: 'e2e', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    await client.callTool({ name: 'create_memory', arguments: { content: 'Stored by an agent over MCP', type: 'long-term' } });
    await client.close();

    const root = await fetch(`${server.url}/dashboard/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([303, '/dashboard/memories']);
    const page = await fetch(`${server.url}/dashboard/memories`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('Stored by an agent over MCP');
    expect(html).toContain('href="/dashboard/assets/dashboard.css"');
    // The rest of the server is as it was.
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});

describe('memsvc-server without MEMSVC_SERVE_DASHBOARD', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startHttpServer({ DATABASE_URL: 'pglite://memory', DEPLOYMENT_PROFILE: 'lite' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves no dashboard', async () => {
    expect((await fetch(`${server.url}/dashboard/memories`)).status).toBe(404);
  });
});
