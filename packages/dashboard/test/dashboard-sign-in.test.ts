import { createHash, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { Secret } from '@memsvc/access';
import { githubClient, mcpResourceOf, mintApiKey } from '@memsvc/auth';
import { DEFAULT_GITHUB_USER, type FakeGitHub, startFakeGitHub } from '@memsvc/auth/testing';
import { toTenantId } from '@memsvc/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { dashboardEngines, JWT_SECRET, startTestDashboard, type TestDashboard } from './support/dashboard-harness.js';
import { csrfOf, type Visitor, visitor } from './support/http-visitor.js';

const GITHUB_APP = { clientId: 'Iv1.dashboard-app', clientSecret: 'gh-dashboard-secret-31c' };
const REDIRECT_BASE = 'https://memory.example.test';

/**
 * Signing in to the dashboard without dev auth, on both engines: an API key or GitHub (a loopback
 * provider speaking GitHub's wire format) gives a session cookie; signing out revokes it; the
 * cookie's flags; the pages' security headers; forged CSRF tokens and cross-site posts refused.
 */
describe.each(dashboardEngines('memsvc_dashboard_sign_in'))('dashboard sign-in [$name]', (engine) => {
  let dashboard: TestDashboard;
  let github: FakeGitHub;
  let key = '';

  beforeAll(async () => {
    github = await startFakeGitHub({ ...GITHUB_APP, users: [DEFAULT_GITHUB_USER] });
    dashboard = await startTestDashboard(await engine.database(), {
      env: {
        MEMSVC_DASHBOARD_DEV_AUTH: 'false',
        DEPLOYMENT_PROFILE: 'standard',
        JWT_SECRET,
        OAUTH_REDIRECT_BASE_URL: REDIRECT_BASE,
        AUTH_GITHUB_ID: GITHUB_APP.clientId,
        AUTH_GITHUB_SECRET: GITHUB_APP.clientSecret,
        NODE_ENV: 'production',
      },
      identityProviders: [
        githubClient({
          clientId: GITHUB_APP.clientId,
          clientSecret: new Secret(GITHUB_APP.clientSecret),
          endpoints: { authorizeUrl: github.authorizeUrl, tokenUrl: github.tokenUrl, apiBaseUrl: github.apiBaseUrl },
          allowInsecureRequests: true,
        }),
      ],
    });
    const minted = mintApiKey();
    await dashboard.runtime.store.apiKeys.create({
      userId: toTenantId('alice'),
      name: 'laptop',
      organizationId: undefined,
      scopes: ['memories:read', 'memories:write', 'memories:delete'],
      expiresAt: undefined,
      prefix: minted.prefix,
      keyHash: minted.keyHash,
    });
    key = minted.key;
    await dashboard.runtime.engine.create(
      { tenant: toTenantId('alice'), actor: { id: 'agent:t' } },
      { content: 'Alice’s fact', tier: 'ltm' },
    );
    await dashboard.runtime.engine.create({ tenant: toTenantId('bob'), actor: { id: 'agent:t' } }, { content: 'Bob’s fact', tier: 'ltm' });
  });
  afterAll(async () => {
    await dashboard?.close();
    await github?.close();
  });

  const signInWithKey = async (presented: string): Promise<{ browser: Visitor; status: number }> => {
    const browser = visitor(dashboard.url);
    const page = await browser.get('/sign-in');
    const answer = await browser.post('/sign-in/key', { _csrf: csrfOf(await page.text()), key: presented });
    return { browser, status: answer.status };
  };

  it('sends a visitor without a session to sign-in, with the security headers on every page', async () => {
    const answer = await visitor(dashboard.url).get('/memories');
    expect([answer.status, answer.headers.get('location')]).toEqual([303, '/sign-in']);
    const page = await visitor(dashboard.url).get('/sign-in');
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "frame-ancestors 'none'",
      "form-action 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(await page.text()).toContain('Sign in with GitHub');
  });

  it('signs in with an API key: an HttpOnly, Secure, SameSite=Lax session cookie; the pages show only that user’s memories', async () => {
    const { browser, status } = await signInWithKey(key);
    expect(status).toBe(303);
    const cookie = browser.setCookies.find((line) => line.startsWith('memsvc_session=')) ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const page = await (await browser.get('/memories')).text();
    expect(page).toContain('Alice’s fact');
    expect(page).not.toContain('Bob’s fact');
  });

  it('refuses a wrong key, with a message that names no reason, and sets no session', async () => {
    for (const presented of ['msk_wrong', 'not a key at all', '']) {
      const { browser, status } = await signInWithKey(presented);
      expect(status).toBe(401);
      expect(browser.setCookies.some((line) => line.startsWith('memsvc_session='))).toBe(false);
    }
  });

  it('signing out revokes the session: the same cookie no longer opens a page', async () => {
    const { browser } = await signInWithKey(key);
    const stolen = browser.cookieHeader();
    const page = await browser.get('/memories');
    await browser.post('/sign-out', { _csrf: csrfOf(await page.text()) });
    const replay = await fetch(`${dashboard.url}/memories`, { headers: { cookie: stolen }, redirect: 'manual' });
    expect([replay.status, replay.headers.get('location')]).toEqual([303, '/sign-in']);
  });

  it('revoking the key a session was opened with ends the session on its next page', async () => {
    const minted = mintApiKey();
    const record = await dashboard.runtime.store.apiKeys.create({
      userId: toTenantId('alice'),
      name: 'lost laptop',
      organizationId: undefined,
      scopes: ['memories:read'],
      expiresAt: undefined,
      prefix: minted.prefix,
      keyHash: minted.keyHash,
    });
    const { browser } = await signInWithKey(minted.key);
    expect((await browser.get('/memories')).status).toBe(200);
    await dashboard.runtime.store.apiKeys.revoke(record.id, new Date());
    const after = await browser.get('/memories');
    expect([after.status, after.headers.get('location')]).toEqual([303, '/sign-in']);
  });

  it('an expired or forged session cookie is treated as none', async () => {
    for (const token of ['eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.', 'garbage']) {
      const answer = await fetch(`${dashboard.url}/memories`, { headers: { cookie: `memsvc_session=${token}` }, redirect: 'manual' });
      expect(answer.status).toBe(303);
      expect(answer.headers.get('set-cookie') ?? '').toMatch(/memsvc_session=;/);
    }
  });

  it(
    verifies(
      'AUTH-SESSION-AUDIENCE',
      'an OAuth access token of this server sent as the session cookie is no session: signed out; the dashboard’s own session works',
    ),
    async () => {
      // A real, live refresh family: an access token is only ever issued from one.
      const familyId = randomUUID();
      await dashboard.runtime.store.oauthRefresh.startFamily(
        familyId,
        {
          clientId: 'mcp_some-client',
          resource: mcpResourceOf(REDIRECT_BASE),
          scopes: ['memories:read'],
          userId: toTenantId('alice'),
          organizationId: null,
          origin: 'github',
          apiKeyId: null,
          notAfter: null,
          signInJti: null,
        },
        createHash('sha256').update(randomUUID()).digest('hex'),
        new Date(Date.now() + 3_600_000),
      );
      const access = await dashboard.runtime.sessions?.issue({
        userId: toTenantId('alice'),
        organizationId: null,
        scopes: ['memories:read', 'memories:write', 'memories:delete'],
        origin: 'github',
        oauth: {
          clientId: 'mcp_some-client',
          audience: mcpResourceOf(REDIRECT_BASE),
          familyId,
          lifetimeSeconds: 3600,
        },
      });
      expect(access).toBeDefined();
      const answer = await fetch(`${dashboard.url}/memories`, {
        headers: { cookie: `memsvc_session=${access?.token}` },
        redirect: 'manual',
      });
      expect([answer.status, answer.headers.get('location')]).toEqual([303, '/sign-in']);
      expect(answer.headers.get('set-cookie') ?? '').toMatch(/memsvc_session=;/);
      const { browser } = await signInWithKey(key);
      const page = await browser.get('/memories');
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Alice’s fact');
    },
  );

  it('refuses a forged CSRF token and a cross-site post, changing nothing', async () => {
    const { browser } = await signInWithKey(key);
    const before = await dashboard.runtime.engine.list({ tenant: toTenantId('alice'), actor: { id: 't' } }, { limit: 10 });
    const id = before.items[0]?.id ?? '';
    const forged = await browser.post('/memories/delete', { _csrf: 'A'.repeat(43), ids: id });
    expect(forged.status).toBe(403);
    const crossSite = await browser.post('/memories/delete', { _csrf: browser.csrfCookie(), ids: id }, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    const after = await dashboard.runtime.engine.list({ tenant: toTenantId('alice'), actor: { id: 't' } }, { limit: 10 });
    expect(after.items.map((memory) => memory.id)).toEqual(before.items.map((memory) => memory.id));
  });

  it('refuses a form larger than any it reads with 413, before sign-in, and signs nobody in', async () => {
    const browser = visitor(dashboard.url);
    const page = await browser.get('/sign-in');
    const form = new URLSearchParams({ _csrf: csrfOf(await page.text()), key: `${key}${'x'.repeat(2 * 1024 * 1024)}` }).toString();
    const huge = await postOnOwnConnection(`${dashboard.url}/sign-in/key`, form, browser.cookieHeader());
    expect(huge.status).toBe(413);
    expect(huge.setCookie.join('\n')).not.toMatch(/memsvc_session=[^;]/);
    // An edit to the content limit, in characters that percent-encode to 9 bytes each, is still read.
    const alice = { tenant: toTenantId('alice'), actor: { id: 'agent:t' } };
    const { memory } = await dashboard.runtime.engine.create(alice, { content: 'A draft to grow', tier: 'ltm' });
    const { browser: signedIn } = await signInWithKey(key);
    const content = '€'.repeat(10_240);
    const edit = { _csrf: signedIn.csrfCookie(), content, tags: '', expectedVersion: String(memory.version) };
    const saved = await signedIn.post(`/memories/${memory.id}/edit`, edit);
    expect([saved.status, saved.headers.get('location')]).toEqual([303, `/memories/${memory.id}?notice=saved`]);
    expect((await dashboard.runtime.engine.get(alice, memory.id)).content).toBe(content);
  });

  it('signs a person in with GitHub through the server’s login flow, back to the dashboard’s callback', async () => {
    const browser = visitor(dashboard.url);
    const start = await browser.get('/auth/github/login');
    expect(start.status).toBe(302);
    const callback = await github.approve(start.headers.get('location') ?? '');
    expect(`${callback.origin}${callback.pathname}`).toBe(`${REDIRECT_BASE}/auth/github/callback`);
    // Login CSRF: the callback URL opened in a browser that did not start the login signs no one in.
    const elsewhere = await visitor(dashboard.url).get(`${callback.pathname}${callback.search}`);
    expect(elsewhere.status).toBe(401);
    expect(await elsewhere.text()).toContain('not started in this browser');
    const back = await browser.get(`${callback.pathname}${callback.search}`);
    expect([back.status, back.headers.get('location')]).toEqual([303, '/memories']);
    const page = await (await browser.get('/memories')).text();
    expect(page).toContain(DEFAULT_GITHUB_USER.emails[0]?.email.toLowerCase() ?? 'missing');
    const replayed = await visitor(dashboard.url).get(`${callback.pathname}${callback.search}`);
    expect(replayed.status).toBe(401);
  });
});

describe('dashboard dev auth', () => {
  it(
    verifies('R-LITE-USER-DEFAULT', 'on lite without MEMSVC_DEFAULT_USER_ID, signs the visitor in as "me", the user tool calls act as'),
    async () => {
      // An empty value is unset: the harness's own default user is taken away.
      const dashboard = await startTestDashboard('pglite://memory', { env: { DEPLOYMENT_PROFILE: 'lite', MEMSVC_DEFAULT_USER_ID: '' } });
      try {
        expect(dashboard.runtime.config.auth.defaultUserId).toBe('me');
        const engine = dashboard.runtime.engine;
        await engine.create({ tenant: toTenantId('me'), actor: { id: 'local' } }, { tier: 'ltm', content: 'My editor is Helix' });
        await engine.create(
          { tenant: toTenantId('someone-else'), actor: { id: 'local' } },
          { tier: 'ltm', content: 'Their editor is Emacs' },
        );
        const page = await (await fetch(`${dashboard.url}/memories`)).text();
        expect(page).toContain('My editor is Helix');
        expect(page).not.toContain('Their editor is Emacs');
      } finally {
        await dashboard.close();
      }
    },
  );

  it('is refused under NODE_ENV=production: the dashboard does not start', async () => {
    await expect(startTestDashboard('pglite://memory', { env: { NODE_ENV: 'production' } })).rejects.toThrow(/MEMSVC_DASHBOARD_DEV_AUTH/);
  });

  it('mounted under a base path, every link and redirect carries it', async () => {
    const dashboard = await startTestDashboard('pglite://memory', { basePath: '/dashboard' });
    try {
      const root = await fetch(`${dashboard.url}/`, { redirect: 'manual' });
      expect(root.headers.get('location')).toBe('/dashboard/memories');
      const page = await (await fetch(`${dashboard.url}/memories`)).text();
      expect(page).toContain('href="/dashboard/assets/dashboard.css"');
      expect(page).toContain('action="/dashboard/memories/delete"');
    } finally {
      await dashboard.close();
    }
  });
});

/**
 * A POST on a connection of its own: the server answers a too-large body before reading it and
 * closes that connection, which must not be one a later request of the test reuses.
 */
function postOnOwnConnection(url: string, body: string, cookie: string): Promise<{ status: number; setCookie: string[] }> {
  return new Promise((resolve, reject) => {
    const { origin } = new URL(url);
    const request = httpRequest(url, {
      method: 'POST',
      agent: false,
      headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
    });
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      response.resume();
      resolve({ status: response.statusCode ?? 0, setCookie: response.headers['set-cookie'] ?? [] });
    });
    // The server may close while the body is still being sent: only an error before its answer counts.
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    request.end(body);
  });
}
