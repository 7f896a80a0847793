import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, serverBin, startHttpServer } from './support/server-process.js';

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

  it('sends a browser at the server root to the dashboard, and logs its address at start', async () => {
    const root = await fetch(`${server.url}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/dashboard']);
    expect(server.stderr()).toContain(`"dashboard":"${server.url}/dashboard"`);
  });

  it("gives stdio configurations that start this installation's server by absolute path, with this Node.js", async () => {
    const page = await (await fetch(`${server.url}/dashboard/access`)).text();
    expect(page).toContain(`&quot;command&quot;: &quot;${process.execPath}&quot;`);
    expect(page).toContain(`&quot;${serverBin}&quot;`);
    expect(page).not.toContain('install it with <code>npm i -g memsvc</code>');
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

  it('serves no dashboard; the root says where MCP and health are', async () => {
    expect((await fetch(`${server.url}/dashboard/memories`)).status).toBe(404);
    const root = await fetch(`${server.url}/`);
    expect(root.status).toBe(200);
    expect(await root.json()).toMatchObject({
      name: 'memsvc',
      mcp: '/mcp',
      health: '/health',
      dashboard: expect.stringContaining('MEMSVC_SERVE_DASHBOARD'),
    });
    expect(server.stderr()).not.toContain('"dashboard":');
  });
});
