import { Writable } from 'node:stream';
import { type FakeGitHub, type FakeGoogle, startFakeGitHub, startFakeGoogle } from '@memsvc/auth/testing';
import type { TenantId } from '@memsvc/core';
import { createLogger } from '@memsvc/runtime';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, readServerConfig, startServer } from '../src/index.js';
import { loopbackIdentityProviders } from './support/loopback-logins.js';
import { call, e2eEngines, type Structured } from './support/tool-calls.js';

const GITHUB_APP = { clientId: 'Iv1.links-app', clientSecret: 'gh-links-secret-4e8a' };
const GOOGLE_APP = { clientId: '43-links.apps.googleusercontent.com', clientSecret: 'GOCSPX-links-secret-a1' };
const REDIRECT_BASE = 'https://memory.example.test';
const BOB = 'bob@corp.example';

// Old Bob's GitHub account (id 9001) while bob@corp.example was his, and after his verified email
// became his personal one; new Bob, who was given the address, signs in with Google.
const GITHUB_PEOPLE = [
  { id: 9001, login: 'old-bob', name: 'Old Bob', emails: [{ email: BOB, primary: true, verified: true }] },
  { id: 9001, login: 'old-bob-later', name: 'Old Bob', emails: [{ email: 'bob@personal.example', primary: true, verified: true }] },
];
const GOOGLE_PEOPLE = [{ sub: '2002', email: BOB, email_verified: true, name: 'New Bob' }];

/**
 * Issue 37 #2 through the real server, on loopback GitHub and Google: a GitHub account linked by
 * an address that was later handed to someone else must not reach that address's tenant once its
 * own verified email has changed, even after the operator ended every session.
 */
describe.each(e2eEngines('memsvc_identity_links'))('a reassigned email address and the old GitHub login ($name)', (engine) => {
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
      JWT_SECRET: 'l'.repeat(40),
      OAUTH_REDIRECT_BASE_URL: REDIRECT_BASE,
      GITHUB_CLIENT_ID: GITHUB_APP.clientId,
      GITHUB_CLIENT_SECRET: GITHUB_APP.clientSecret,
      GOOGLE_CLIENT_ID: GOOGLE_APP.clientId,
      GOOGLE_CLIENT_SECRET: GOOGLE_APP.clientSecret,
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

  /** The browser's whole trip, as `asUser` at the provider: the callback's answer. */
  const login = async (provider: 'github' | 'google', asUser: string) => {
    const start = await fetch(`${server.url}/auth/${provider}/login`, { redirect: 'manual' });
    const [stateCookie = ''] = (start.headers.get('set-cookie') ?? '').split(';');
    const callback = await (provider === 'github' ? github : google).approve(start.headers.get('location') ?? '', asUser);
    return fetch(`${server.url}${callback.pathname}${callback.search}`, { headers: { cookie: stateCookie } });
  };
  const sessionOf = async (provider: 'github' | 'google', asUser: string) => {
    const answer = await login(provider, asUser);
    expect(answer.status).toBe(200);
    return (await answer.json()) as Structured;
  };
  const connect = async (token: string) => {
    const client = new Client({ name: 'identity-links-e2e', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    clients.push(client);
    return client;
  };
  const contentsFound = async (client: Client, query: string) =>
    ((await call(client, 'recall', { query })).body.results as Structured[]).map((hit) => hit.text);

  it('R-IDENTITY-EMAIL: once the email changed, the old GitHub account is refused (403, ask the operator) and reads nothing of the new owner', async () => {
    const oldBob = await sessionOf('github', 'old-bob');
    expect(oldBob.userId).toBe(BOB);
    const newBob = await sessionOf('google', BOB);
    expect(newBob.userId).toBe(BOB);
    await call(await connect(newBob.token as string), 'create_memory', {
      content: 'New Bob: payroll export runs Mondays',
      type: 'long-term',
    });

    // The operator ends Bob's sessions, as docs/operations.md said would shut the old Bob out.
    await server.store.sessions.denyAll(BOB as TenantId, new Date());
    const sessionsBefore = await server.store.connection.db.selectFrom('sessions').select('id').execute();

    const again = await login('github', 'old-bob-later');
    expect(again.status).toBe(403);
    const refusal = (await again.json()) as Structured;
    expect(refusal.error.message).toMatch(/no longer the one it was linked to.*Ask the operator/);
    expect(JSON.stringify(refusal)).not.toContain(BOB);
    expect(await server.store.connection.db.selectFrom('sessions').select('id').execute()).toEqual(sessionsBefore);
    expect(log).toContain('"reason":"identity-email-changed"');
    const [link] = await server.store.userIdentities.list({ userId: BOB as TenantId });
    expect(link).toMatchObject({ provider: 'github', userId: BOB, email: 'bob@personal.example' });
  });

  it("R-IDENTITY-UNLINK: after the operator unlinks it, the old account gets a tenant of its own address, not the new owner's", async () => {
    await server.store.userIdentities.unlink({ provider: 'github', providerUserId: '9001' }, new Date());
    const oldBob = await sessionOf('github', 'old-bob-later');
    expect(oldBob.userId).toBe('bob@personal.example');
    expect(await contentsFound(await connect(oldBob.token as string), 'payroll export Mondays')).toEqual([]);
    // New Bob is unaffected.
    const newBob = await sessionOf('google', BOB);
    expect(await contentsFound(await connect(newBob.token as string), 'payroll export Mondays')).toEqual([
      'New Bob: payroll export runs Mondays',
    ]);
  });
});
