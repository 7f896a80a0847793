import { Secret } from '@memsvc/access';
import { githubClient } from '@memsvc/auth';
import { DEFAULT_GITHUB_USER, type FakeGitHub, startFakeGitHub } from '@memsvc/auth/testing';
import { toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { createLogger } from '@memsvc/runtime';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifies } from '../../../packages/core/test/requirements.js';
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
 * login comes back to the waiting request signed in, and the grant is the person's. That sign-in
 * is good for the decision only: ten minutes at most, ended by the decision, no session anywhere
 * else; ending the person's sessions ends the grant.
 */
describe.each(e2eEngines('memsvc_oauth_consent'))('OAuth consent with a GitHub sign-in ($name)', (engine) => {
  let github: FakeGitHub;
  let server: RunningServer;
  let base = '';
  const clock = new ManualClock(new Date());
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
      MEMSVC_SERVE_DASHBOARD: 'true',
    });
    const loopbackGithub = githubClient({
      clientId: GITHUB_APP.clientId,
      clientSecret: new Secret(GITHUB_APP.clientSecret),
      endpoints: { authorizeUrl: github.authorizeUrl, tokenUrl: github.tokenUrl, apiBaseUrl: github.apiBaseUrl },
      allowInsecureRequests: true,
    });
    server = await startServer(config, createLogger('warn'), { identityProviders: [loopbackGithub], clock });
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await server?.close();
    await github?.close();
  });

  /** An authorization request, opened in a fresh browser: its cookie and handle. */
  const openRequest = async () => {
    const provider = new RecordingOAuthClient(REDIRECT);
    expect(await auth(provider, { serverUrl: `${base}/mcp` })).toBe('REDIRECT');
    const page = await fetch(provider.authorizationUrl ?? '', { redirect: 'manual' });
    const html = await page.text();
    return {
      provider,
      consentCookie: cookieOf(page, 'memsvc_oauth_consent'),
      handle: /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? '',
    };
  };
  /** The GitHub sign-in of the consent page, started with the request's cookie: the sign-in cookie it comes back with. */
  const signInWithGithub = async (consentCookie: string) => {
    const start = await fetch(`${base}/oauth/login/github`, { redirect: 'manual', headers: { cookie: consentCookie } });
    const callback = await github.approve(start.headers.get('location') ?? '');
    const back = await fetch(`${base}${callback.pathname}${callback.search}`, {
      redirect: 'manual',
      headers: { cookie: cookieOf(start, 'memsvc_login_state') },
    });
    expect([back.status, back.headers.get('location')]).toEqual([303, '/oauth/authorize/resume']);
    return cookieOf(back, 'memsvc_oauth_signin');
  };
  const decide = (handle: string, cookie: string, decision: 'approve' | 'deny' = 'approve') =>
    fetch(`${base}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ handle, decision, api_key: '' }).toString(),
    });
  const tokenOf = (cookie: string) => decodeURIComponent(cookie.split('=')[1] ?? '');
  const mcpPing = (bearer: string) =>
    fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
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
    // A write returns the id; whose memory it is, get_memory says.
    expect((await call(client, 'get_memory', { memoryId: created.body.memory.id })).body.memory.userId).toBe('octocat@example.com');

    // Ending the person's sessions ends the grant: its access token at once, its refresh too.
    expect(await server.store.sessions.denyAll(toTenantId('octocat@example.com'), clock.now())).toBeGreaterThan(0);
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

  it(
    verifies(
      'OAUTH-CONSENT-SIGN-IN',
      'the GitHub sign-in of the consent page is no session: refused by /mcp, /auth/session and the dashboard, ended by the decision (approve or deny), refused after ten minutes',
    ),
    async () => {
      // Not a session anywhere but the consent page.
      const first = await openRequest();
      const signIn = await signInWithGithub(first.consentCookie);
      const token = tokenOf(signIn);
      expect((await mcpPing(token)).status).toBe(401);
      expect((await fetch(`${base}/auth/session`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
      const dashboard = await fetch(`${base}/dashboard/memories`, { redirect: 'manual', headers: { cookie: `memsvc_session=${token}` } });
      expect([dashboard.status, dashboard.headers.get('location')]).toEqual([303, '/dashboard/sign-in']);

      // Denying ends it: the same sign-in cannot approve the next request.
      expect((await decide(first.handle, `${first.consentCookie}; ${signIn}`, 'deny')).status).toBe(303);
      const second = await openRequest();
      const resumed = await fetch(`${base}/oauth/authorize/resume`, { headers: { cookie: `${second.consentCookie}; ${signIn}` } });
      expect(resumed.status).toBe(403);
      expect((await decide(second.handle, `${second.consentCookie}; ${signIn}`)).status).toBe(401);

      // Approving ends it too.
      const approvedWith = await signInWithGithub(second.consentCookie);
      expect((await decide(second.handle, `${second.consentCookie}; ${approvedWith}`)).status).toBe(303);
      const third = await openRequest();
      expect((await decide(third.handle, `${third.consentCookie}; ${approvedWith}`)).status).toBe(401);

      // Ten minutes after the sign-in it is over, decided or not.
      const late = await signInWithGithub(third.consentCookie);
      clock.advance(10 * 60 * 1000 + 1000);
      const fourth = await openRequest();
      expect((await fetch(`${base}/oauth/authorize/resume`, { headers: { cookie: `${fourth.consentCookie}; ${late}` } })).status).toBe(403);
      expect((await decide(fourth.handle, `${fourth.consentCookie}; ${late}`)).status).toBe(401);
    },
  );
});
