import { githubClient } from '@memsvc/auth';
import { DEFAULT_GITHUB_USER, type FakeGitHub, startFakeGitHub } from '@memsvc/auth/testing';
import { Secret } from '@memsvc/core';
import { createLogger } from '@memsvc/runtime';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, readServerConfig, startServer } from '../src/index.js';
import { freePort, RecordingOAuthClient } from './support/oauth-clients.js';
import { call, e2eEngines } from './support/tool-calls.js';

const GITHUB_APP = { clientId: 'Iv1.consent-app', clientSecret: 'gh-consent-secret-81c2' };
const REDIRECT = 'http://127.0.0.1:47125/callback';

/** The first `name=value` of a response's Set-Cookie headers for `name`. */
function cookieOf(response: Response, name: string): string {
  const line = response.headers.getSetCookie().find((entry) => entry.startsWith(`${name}=`)) ?? '';
  return line.split(';')[0] ?? '';
}

/**
 * Consent with a GitHub login instead of an API key: the authorize page links to GitHub, the
 * login comes back to the waiting request signed in, and the grant is the person's; logging that
 * sign-in out ends the grant's refresh.
 */
describe.each(e2eEngines('memsvc_oauth_consent'))('OAuth consent with a GitHub sign-in ($name)', (engine) => {
  let github: FakeGitHub;
  let server: RunningServer;
  let base = '';
  const clients: Client[] = [];

  beforeAll(async () => {
    github = await startFakeGitHub({ ...GITHUB_APP, users: [DEFAULT_GITHUB_USER] });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const { config } = readServerConfig({
      DATABASE_URL: await engine.database(),
      DEPLOYMENT_PROFILE: 'standard',
      MCP_TRANSPORT: 'streamable-http',
      HOST: '127.0.0.1',
      PORT: String(port),
      AUTH_REQUIRED: 'true',
      JWT_SECRET: 'c'.repeat(40),
      OAUTH_REDIRECT_BASE_URL: base,
      GITHUB_CLIENT_ID: GITHUB_APP.clientId,
      GITHUB_CLIENT_SECRET: GITHUB_APP.clientSecret,
      EMBEDDING_PROVIDER: 'local',
      LOG_LEVEL: 'warn',
    });
    const loopbackGithub = githubClient({
      clientId: GITHUB_APP.clientId,
      clientSecret: new Secret(GITHUB_APP.clientSecret),
      endpoints: { authorizeUrl: github.authorizeUrl, tokenUrl: github.tokenUrl, apiBaseUrl: github.apiBaseUrl },
      allowInsecureRequests: true,
    });
    server = await startServer(config, createLogger('warn'), { identityProviders: [loopbackGithub] });
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await server?.close();
    await github?.close();
  });

  it('signs the person in with GitHub from the authorize page and grants the client their memories', async () => {
    const provider = new RecordingOAuthClient(REDIRECT);
    expect(await auth(provider, { serverUrl: `${base}/mcp` })).toBe('REDIRECT');
    const page = await fetch(provider.authorizationUrl ?? '', { redirect: 'manual' });
    const html = await page.text();
    expect(html).toContain('<a href="/oauth/login/github">Sign in with GitHub</a>');
    const consentCookie = cookieOf(page, 'memsvc_oauth_consent');
    const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? '';

    // Without the page's cookie, no login starts for it.
    expect((await fetch(`${base}/oauth/login/github`, { redirect: 'manual' })).status).toBe(400);
    const start = await fetch(`${base}/oauth/login/github`, { redirect: 'manual', headers: { cookie: consentCookie } });
    expect(start.status).toBe(302);
    const loginCookie = cookieOf(start, 'memsvc_login_state');
    const callback = await github.approve(start.headers.get('location') ?? '');
    const back = await fetch(`${base}${callback.pathname}${callback.search}`, { redirect: 'manual', headers: { cookie: loginCookie } });
    expect([back.status, back.headers.get('location')]).toEqual([303, '/oauth/authorize/resume']);
    const signInCookie = cookieOf(back, 'memsvc_oauth_signin');
    expect(back.headers.getSetCookie().find((line) => line.startsWith('memsvc_oauth_signin='))).toMatch(/Path=\/oauth\/; HttpOnly/);

    // The resumed page needs both cookies; then it says who is signed in.
    expect((await fetch(`${base}/oauth/authorize/resume`, { headers: { cookie: consentCookie } })).status).toBe(403);
    const resumed = await fetch(`${base}/oauth/authorize/resume`, { headers: { cookie: `${consentCookie}; ${signInCookie}` } });
    expect(await resumed.text()).toContain('Signed in as <strong>octocat@example.com</strong> with GitHub');

    const decide = (cookie: string) =>
      fetch(`${base}/oauth/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({ handle, decision: 'approve', api_key: '' }).toString(),
      });
    // Allow without any sign-in is refused, and the request keeps waiting.
    expect((await decide(consentCookie)).status).toBe(401);
    const approved = await decide(`${consentCookie}; ${signInCookie}`);
    expect(approved.status).toBe(303);
    const code = new URL(approved.headers.get('location') ?? '').searchParams.get('code') ?? '';
    expect(await auth(provider, { serverUrl: `${base}/mcp`, authorizationCode: code })).toBe('AUTHORIZED');

    const client = new Client({ name: 'consent-e2e', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }));
    clients.push(client);
    const created = await call(client, 'create_memory', { content: 'Octocat consented with GitHub', type: 'long-term' });
    expect(created.body.memory.userId).toBe('octocat@example.com');

    // Logging the sign-in out ends the grant: its access token at once, its refresh too.
    const signInToken = decodeURIComponent(signInCookie.split('=')[1] ?? '');
    expect((await fetch(`${base}/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${signInToken}` } })).status).toBe(204);
    const refresh = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: provider.saved?.refresh_token ?? '',
        client_id: provider.info?.client_id ?? '',
      }).toString(),
    });
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
    const ping = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${provider.saved?.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(ping.status).toBe(401);
    const families = await server.store.connection.db.selectFrom('oauth_refresh_families').select(['revoked_at', 'sign_in_jti']).execute();
    expect(families).toHaveLength(1);
    expect(families[0]?.revoked_at).not.toBeNull();
  });
});
