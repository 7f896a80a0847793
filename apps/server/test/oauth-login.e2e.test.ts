import { Writable } from 'node:stream';
import { DEFAULT_GITHUB_USER, type FakeGitHub, type FakeGoogle, startFakeGitHub, startFakeGoogle } from '@memsvc/auth/testing';
import { createLogger } from '@memsvc/runtime';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, readServerConfig, startServer } from '../src/index.js';
import { loopbackIdentityProviders } from './support/loopback-logins.js';
import { call, e2eEngines, type Structured } from './support/tool-calls.js';

const GITHUB_APP = { clientId: 'Iv1.e2e-app', clientSecret: 'gh-e2e-secret-7a1c9f' };
const GOOGLE_APP = { clientId: '42-e2e.apps.googleusercontent.com', clientSecret: 'GOCSPX-e2e-secret-55d1' };
// Where the providers send the browser back; the test follows that path on the server it started.
const REDIRECT_BASE = 'https://memory.example.test';

const GITHUB_PEOPLE = [
  DEFAULT_GITHUB_USER,
  { id: 7001, login: 'ops-person', name: 'Ops', emails: [{ email: 'Ops@Example.com', primary: true, verified: true }] },
  { id: 7002, login: 'unverified', name: null, emails: [{ email: 'new@example.com', primary: true, verified: false }] },
];
const GOOGLE_PEOPLE = [
  { sub: '1001', email: 'octocat@example.com', email_verified: true, name: 'Octo on Google' },
  { sub: '1002', email: 'maybe@example.com', email_verified: false, name: 'Unverified' },
];

/**
 * GitHub and Google login through the real server, on loopback providers that speak each one's
 * wire format: /auth/<provider>/login redirects with PKCE and a state, the callback trades the
 * code for a verified email and answers a session JWT, and that session drives MCP as the
 * person. Refusals (reused state, unverified email, a failing provider) are 401/403 and write nothing.
 */
describe.each(e2eEngines('memsvc_oauth'))('GitHub and Google login through the server ($name)', (engine) => {
  let github: FakeGitHub;
  let google: FakeGoogle;
  let server: RunningServer;
  let log = '';
  const clients: Client[] = [];

  beforeAll(async () => {
    github = await startFakeGitHub({ ...GITHUB_APP, users: GITHUB_PEOPLE });
    google = await startFakeGoogle({ ...GOOGLE_APP, users: GOOGLE_PEOPLE });
    const { config } = readServerConfig({
      DATABASE_URL: await engine.database(),
      DEPLOYMENT_PROFILE: 'standard',
      // These tests use create_memory, outside the default tool sets.
      MCP_TOOL_SETS: 'all',
      MCP_TRANSPORT: 'streamable-http',
      HOST: '127.0.0.1',
      PORT: '0',
      AUTH_REQUIRED: 'true',
      JWT_SECRET: 'o'.repeat(40),
      OAUTH_REDIRECT_BASE_URL: REDIRECT_BASE,
      GITHUB_CLIENT_ID: GITHUB_APP.clientId,
      GITHUB_CLIENT_SECRET: GITHUB_APP.clientSecret,
      GOOGLE_CLIENT_ID: GOOGLE_APP.clientId,
      GOOGLE_CLIENT_SECRET: GOOGLE_APP.clientSecret,
      MEMSVC_ADMIN_EMAILS: 'ops@example.com',
      EMBEDDING_PROVIDER: 'local',
      LOG_LEVEL: 'info',
    });
    const sink = new Writable({
      write(chunk, _encoding, done) {
        log += chunk;
        done();
      },
    });
    server = await startServer(config, createLogger('info', sink), {
      identityProviders: loopbackIdentityProviders(github, google, { github: GITHUB_APP, google: GOOGLE_APP }),
    });
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await server?.close();
    await github?.close();
    await google?.close();
  });

  /** The browser's trip: our login route, the provider's consent, back to our callback. */
  const login = async (provider: 'github' | 'google', asUser?: string) => {
    const start = await fetch(`${server.url}/auth/${provider}/login`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const authorization = start.headers.get('location') ?? '';
    const fake = provider === 'github' ? github : google;
    // The browser keeps the login's state cookie for the callback (and only for it).
    const [stateCookie = '', ...attributes] = (start.headers.get('set-cookie') ?? '').split(';').map((part) => part.trim());
    expect(stateCookie).toMatch(/^memsvc_login_state=[A-Za-z0-9_-]{43}$/);
    expect(attributes).toEqual(expect.arrayContaining(['Max-Age=600', 'Path=/auth/', 'HttpOnly', 'Secure', 'SameSite=Lax']));
    const callback = await fake.approve(authorization, asUser);
    expect(`${callback.origin}${callback.pathname}`).toBe(`${REDIRECT_BASE}/auth/${provider}/callback`);
    const callbackUrl = `${server.url}${callback.pathname}${callback.search}`;
    return {
      authorization: new URL(authorization),
      callback,
      follow: () => fetch(callbackUrl, { headers: { cookie: stateCookie } }),
      followElsewhere: () => fetch(callbackUrl),
    };
  };
  const connect = async (token: string) => {
    const client = new Client({ name: 'oauth-e2e', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    clients.push(client);
    return client;
  };
  const rows = async (table: 'oauth_states' | 'user_identities' | 'sessions') =>
    server.store.connection.db.selectFrom(table).selectAll().execute() as Promise<Structured[]>;

  it('lists the enabled providers and refuses one that is not', async () => {
    expect(await (await fetch(`${server.url}/auth/providers`)).json()).toEqual({ providers: ['github', 'google'] });
    const gitlab = await fetch(`${server.url}/auth/gitlab/login`, { redirect: 'manual' });
    expect(gitlab.status).toBe(404);
  });

  it('logs a person in with GitHub (PKCE, single-use state): the session acts as their verified email', async () => {
    const trip = await login('github');
    expect(trip.authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(trip.authorization.searchParams.get('client_id')).toBe(GITHUB_APP.clientId);
    expect(await rows('oauth_states')).toHaveLength(1);
    const answer = await trip.follow();
    expect(answer.status).toBe(200);
    const session = (await answer.json()) as Structured;
    expect(session).toMatchObject({ tokenType: 'Bearer', userId: 'octocat@example.com' });
    expect(session.scopes).toEqual(['memories:read', 'memories:write', 'memories:delete', 'keys:manage']);
    expect(await rows('oauth_states')).toHaveLength(0);

    const octocat = await connect(session.token);
    const created = await call(octocat, 'create_memory', {
      userId: 'someone-else',
      content: 'Octocat ships on Fridays',
      type: 'long-term',
    });
    // A write returns the id; whose memory it is, get_memory says.
    expect((await call(octocat, 'get_memory', { memoryId: created.body.memory.id })).body.memory.userId).toBe('octocat@example.com');

    // The same callback again: the state was consumed, so it is refused before GitHub is asked.
    const replay = await trip.follow();
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as Structured).error.message).not.toContain(trip.callback.searchParams.get('state'));
  });

  it('refuses a callback in a browser that did not start the login (login CSRF), and the login stays open for the one that did', async () => {
    const trip = await login('github');
    const elsewhere = await trip.followElsewhere();
    expect(elsewhere.status).toBe(401);
    expect(((await elsewhere.json()) as Structured).error.message).toContain('not started in this browser');
    expect(await rows('oauth_states')).toHaveLength(1);
    const here = await trip.follow();
    expect(here.status).toBe(200);
    expect(here.headers.get('set-cookie')).toMatch(/^memsvc_login_state=;.*Max-Age=0/);
  });

  it('reaches the same tenant through Google, and gives an admin email the admin scope', async () => {
    const google1 = await (await (await login('google')).follow()).json();
    expect(google1).toMatchObject({ userId: 'octocat@example.com' });
    const viaGoogle = await connect((google1 as Structured).token);
    const recalled = await call(viaGoogle, 'recall', { query: 'Octocat Fridays' });
    expect((recalled.body.results as Structured[]).map((hit) => hit.text)).toContain('Octocat ships on Fridays');

    const ops = (await (await (await login('github', 'ops-person')).follow()).json()) as Structured;
    expect(ops).toMatchObject({ userId: 'ops@example.com' });
    expect(ops.scopes).toContain('admin');
    const identities = await rows('user_identities');
    expect(identities.map((identity) => `${identity.provider}:${identity.user_id}`).sort()).toEqual([
      'github:octocat@example.com',
      'github:ops@example.com',
      'google:octocat@example.com',
    ]);
  });

  it('refuses an unverified email with 403, a failing provider and a missing state with 401, and writes no identity', async () => {
    const before = (await rows('user_identities')).length;
    const sessionsBefore = (await rows('sessions')).length;
    const unverified = await (await login('github', 'unverified')).follow();
    expect(unverified.status).toBe(403);
    const maybe = await (await login('google', 'maybe@example.com')).follow();
    expect(maybe.status).toBe(403);

    const trip = await login('github');
    github.setFailure('token-500');
    try {
      expect((await trip.follow()).status).toBe(401);
    } finally {
      github.setFailure(undefined);
    }
    const noState = await fetch(`${server.url}/auth/github/callback?code=abc`);
    expect(noState.status).toBe(401);
    const forgedState = await fetch(`${server.url}/auth/github/callback?code=abc&state=${'A'.repeat(43)}`);
    expect(forgedState.status).toBe(401);
    const denied = await fetch(`${server.url}/auth/github/callback?error=access_denied&state=x`);
    expect(denied.status).toBe(401);

    expect((await rows('user_identities')).length).toBe(before);
    expect((await rows('sessions')).length).toBe(sessionsBefore);
    for (const secret of [GITHUB_APP.clientSecret, GOOGLE_APP.clientSecret, trip.callback.searchParams.get('code') ?? '-']) {
      expect(log).not.toContain(secret);
    }
    expect(log).toContain('"event":"login_refused"');
  });
});
