import { Writable } from 'node:stream';
import { ManualClock } from '@memsvc/core/testing';
import { createLogger } from '@memsvc/runtime';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifies } from '../../../packages/core/test/requirements.js';
import { type RunningServer, readServerConfig, startServer } from '../src/index.js';
import { storeApiKey } from './support/bearer-clients.js';
import { consent, freePort, RecordingOAuthClient, startMetadataHost } from './support/oauth-clients.js';
import { call, e2eEngines } from './support/tool-calls.js';

const JWT_SECRET = 'a'.repeat(40);
const REDIRECT = 'http://127.0.0.1:47123/callback';
const S256 = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/**
 * memsvc as an OAuth 2.1 authorization server for MCP clients, end to end through the real HTTP
 * app: discovery from a 401, dynamic registration and metadata-document clients driven by the
 * SDK's own `auth()`, consent with an API key, a tool call with the token, refresh rotation, and
 * every refusal the authorization server makes — each storing nothing.
 */
describe.each(e2eEngines('memsvc_oauth_as'))('MCP authorization through the server ($name)', (engine) => {
  const clock = new ManualClock(new Date());
  const documents = new Map<string, unknown>();
  let metadataHost: Awaited<ReturnType<typeof startMetadataHost>>;
  let server: RunningServer;
  let base = '';
  let mcpUrl = '';
  let aliceKey = { id: '', key: '' };
  let readerKey = { id: '', key: '' };
  let log = '';
  const clients: Client[] = [];

  beforeAll(async () => {
    metadataHost = await startMetadataHost(documents);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    mcpUrl = `${base}/mcp`;
    const { config } = readServerConfig({
      DATABASE_URL: await engine.database(),
      DEPLOYMENT_PROFILE: 'standard',
      MCP_TRANSPORT: 'streamable-http',
      HOST: '127.0.0.1',
      PORT: String(port),
      AUTH_REQUIRED: 'true',
      JWT_SECRET,
      OAUTH_REDIRECT_BASE_URL: base,
      OAUTH_CLIENT_METADATA_ALLOWED_HOSTS: 'localhost',
      EMBEDDING_PROVIDER: 'local',
      LOG_LEVEL: 'info',
    });
    const sink = new Writable({
      write(chunk, _encoding, done) {
        log += chunk;
        done();
      },
    });
    server = await startServer(config, createLogger('info', sink), { clock });
    aliceKey = await storeApiKey(server.store, {
      user: 'alice',
      name: 'alice-laptop',
      scopes: ['memories:read', 'memories:write', 'memories:delete'],
    });
    readerKey = await storeApiKey(server.store, { user: 'rita', name: 'rita-reader', scopes: ['memories:read'] });
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await server?.close();
    await metadataHost?.close();
  });

  const count = async (table: string) =>
    (
      await server.store.connection.db
        .selectFrom(table as 'oauth_codes')
        .selectAll()
        .execute()
    ).length;
  /** Codes not yet redeemed: a redeemed one is kept until it expires, so a replay is recognised. */
  const liveCodes = async () =>
    (await server.store.connection.db.selectFrom('oauth_codes').select('code_hash').where('redeemed_at', 'is', null).execute()).length;
  const counts = async () => ({
    clients: await count('oauth_clients'),
    pending: await count('oauth_pending_authorizations'),
    codes: await count('oauth_codes'),
    families: await count('oauth_refresh_families'),
  });
  const connect = async (provider: RecordingOAuthClient) => {
    const client = new Client({ name: 'oauth-e2e', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
    clients.push(client);
    return client;
  };
  const token = (form: Record<string, string>) =>
    fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  const mcpStatus = async (bearer: string, body: unknown = { jsonrpc: '2.0', id: 1, method: 'ping' }) =>
    fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(body),
    });
  /** The whole dance with the SDK: discovery and registration, consent as `apiKey`, the code exchanged. */
  const authorizeWithSdk = async (provider: RecordingOAuthClient, apiKey: string) => {
    expect(await auth(provider, { serverUrl: mcpUrl })).toBe('REDIRECT');
    const authorizationUrl = provider.authorizationUrl ?? new URL('about:blank');
    const { decision, page, html } = await consent(authorizationUrl, { apiKey });
    expect(decision.status).toBe(303);
    const back = new URL(decision.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(provider.redirectUrl);
    expect(back.searchParams.get('iss')).toBe(base);
    expect(back.searchParams.get('state')).toBe(authorizationUrl.searchParams.get('state'));
    expect(await auth(provider, { serverUrl: mcpUrl, authorizationCode: back.searchParams.get('code') ?? '' })).toBe('AUTHORIZED');
    return { page, html, authorizationUrl };
  };

  it(
    verifies(
      'OAUTH-DISCOVERY',
      'a 401 names the resource metadata, which names this server as the authorization server; both metadata documents say what it supports',
    ),
    async () => {
      const refused = await fetch(mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).toBe(401);
      const challenge = `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="memories:read memories:write memories:delete"`;
      expect(refused.headers.get('www-authenticate')).toBe(challenge);
      // An invalid token gets the same challenge (and so do the session routes that take a token).
      expect((await mcpStatus('not-a-token')).headers.get('www-authenticate')).toBe(challenge);
      expect((await fetch(`${base}/auth/session`)).headers.get('www-authenticate')).toBe(challenge);

      for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
        expect(await (await fetch(`${base}${path}`)).json()).toEqual({
          resource: mcpUrl,
          authorization_servers: [base],
          scopes_supported: ['memories:read', 'memories:write', 'memories:delete'],
          bearer_methods_supported: ['header'],
          resource_name: 'memsvc',
        });
      }
      // A browser-based client of any origin may discover, register and redeem (no cookie rides
      // on those); the consent page and /mcp stay closed to a page of an origin not configured.
      const preflight = await fetch(`${base}/oauth/register`, {
        method: 'OPTIONS',
        headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      const crossOrigin = await fetch(`${base}/.well-known/oauth-authorization-server`, {
        headers: { origin: 'https://inspector.example' },
      });
      expect(crossOrigin.status).toBe(200);
      expect(crossOrigin.headers.get('access-control-allow-origin')).toBe('*');
      for (const path of ['/oauth/authorize', '/mcp']) {
        const page = await fetch(`${base}${path}`, { headers: { origin: 'https://inspector.example' } });
        expect(page.status, path).toBe(403);
      }
      const discovered = await fetch(`${base}/.well-known/oauth-authorization-server`);
      const metadata = (await discovered.json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({
        issuer: base,
        authorization_endpoint: `${base}/oauth/authorize`,
        token_endpoint: `${base}/oauth/token`,
        registration_endpoint: `${base}/oauth/register`,
        code_challenge_methods_supported: ['S256'],
        client_id_metadata_document_supported: true,
        authorization_response_iss_parameter_supported: true,
        token_endpoint_auth_methods_supported: ['none'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
      });
    },
  );

  it(
    verifies('OAUTH-DCR', 'the SDK registers dynamically, the person consents with an API key, and the token drives a tool as that user'),
    async () => {
      const provider = new RecordingOAuthClient(REDIRECT);
      const { page, html, authorizationUrl } = await authorizeWithSdk(provider, aliceKey.key);
      expect(provider.info?.client_id).toMatch(/^mcp_[A-Za-z0-9_-]{22}$/);
      expect(authorizationUrl.searchParams.get('resource')).toBe(mcpUrl);
      // The page: strict CSP, not frameable, the client's claimed name escaped.
      expect(page.headers.get('content-security-policy')).toBe(
        "default-src 'none'; form-action 'self' http://127.0.0.1:47123; frame-ancestors 'none'; base-uri 'none'",
      );
      expect(html).not.toContain('<script>');
      expect(html).toContain('E2E &#60;script&#62;alert(1)&#60;/script&#62; client');
      expect(provider.saved).toMatchObject({ token_type: 'Bearer', scope: 'memories:read memories:write memories:delete' });
      expect(provider.saved?.expires_in).toBeGreaterThan(3590);
      expect(provider.saved?.expires_in).toBeLessThanOrEqual(3600);

      const client = await connect(provider);
      const created = await call(client, 'create_memory', {
        userId: 'mallory',
        content: 'Alice keeps her notes in memsvc',
        type: 'long-term',
      });
      // A write returns the id; whose memory it is, get_memory says.
      expect((await call(client, 'get_memory', { memoryId: created.body.memory.id })).body.memory.userId).toBe('alice');
      // Nothing secret is stored: codes and refresh tokens only as hashes.
      const family = await server.store.connection.db.selectFrom('oauth_refresh_tokens').select('token_hash').execute();
      expect(family.map((row) => row.token_hash)).not.toContain(provider.saved?.refresh_token);
      expect(log).not.toContain(provider.saved?.refresh_token ?? '-');
      expect(log).not.toContain(provider.saved?.access_token ?? '-');
    },
  );

  it(
    verifies(
      'OAUTH-CIMD',
      'a client known by its metadata document (on a host the setting allows) authorizes with the SDK and calls a tool',
    ),
    async () => {
      const clientId = `${metadataHost.url}/claude.json`;
      documents.set('/claude.json', { client_id: clientId, client_name: 'Metadata client', redirect_uris: [REDIRECT] });
      const provider = new RecordingOAuthClient(REDIRECT);
      // The SDK insists on https for a metadata URL, so the test hands it the client information itself.
      provider.info = { client_id: clientId };
      const before = await count('oauth_clients');
      const { html } = await authorizeWithSdk(provider, aliceKey.key);
      expect(html).toContain(`described by <strong>${new URL(clientId).host}</strong>`);
      expect(await count('oauth_clients')).toBe(before);
      const client = await connect(provider);
      expect((await call(client, 'recall', { query: 'notes' })).isError).toBeFalsy();
    },
  );

  it(
    verifies('OAUTH-REFRESH-ROTATION', 'refresh rotates the token; the old one presented again revokes the family and its access tokens'),
    async () => {
      const provider = new RecordingOAuthClient(REDIRECT);
      await authorizeWithSdk(provider, aliceKey.key);
      const first = provider.saved ?? { access_token: '', refresh_token: '' };
      const clientId = provider.info?.client_id ?? '';
      // The SDK refreshes when it holds a refresh token.
      expect(await auth(provider, { serverUrl: mcpUrl })).toBe('AUTHORIZED');
      const second = provider.saved ?? { access_token: '', refresh_token: '' };
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect((await mcpStatus(second.access_token)).status).toBe(200);
      expect((await mcpStatus(first.access_token)).status).toBe(200);

      const replay = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token ?? '', client_id: clientId });
      expect(replay.status).toBe(400);
      expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
      // Both access tokens of the family are ended, and so is the successor refresh token.
      expect((await mcpStatus(first.access_token)).status).toBe(401);
      expect((await mcpStatus(second.access_token)).status).toBe(401);
      const successor = await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token ?? '', client_id: clientId });
      expect(await successor.json()).toMatchObject({ error: 'invalid_grant' });
    },
  );

  it('revoking the API key used to consent ends the access tokens and refuses the refresh', async () => {
    const key = await storeApiKey(server.store, { user: 'alice', name: 'alice-temp', scopes: ['memories:read'] });
    const provider = new RecordingOAuthClient(REDIRECT);
    await authorizeWithSdk(provider, key.key);
    expect(provider.saved?.scope).toBe('memories:read');
    await server.store.apiKeys.revoke(key.id, clock.now());
    expect((await mcpStatus(provider.saved?.access_token ?? '')).status).toBe(401);
    const refused = await token({
      grant_type: 'refresh_token',
      refresh_token: provider.saved?.refresh_token ?? '',
      client_id: provider.info?.client_id ?? '',
    });
    expect(await refused.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('no token of a grant outlives the API key that consented', async () => {
    const expiresAt = new Date(Math.ceil((clock.now().getTime() + 20 * 60_000) / 1000) * 1000);
    const key = await storeApiKey(server.store, { user: 'alice', name: 'alice-short', scopes: ['memories:read'], expiresAt });
    const provider = new RecordingOAuthClient(REDIRECT);
    await authorizeWithSdk(provider, key.key);
    expect(provider.saved?.expires_in).toBe(Math.round((expiresAt.getTime() - clock.now().getTime()) / 1000));
    const family = await server.store.connection.db
      .selectFrom('oauth_refresh_families')
      .select('expires_at')
      .where('client_id', '=', provider.info?.client_id ?? '')
      .executeTakeFirstOrThrow();
    expect(family.expires_at).toEqual(expiresAt);
  });

  it(
    verifies(
      'OAUTH-STEP-UP',
      'an OAuth token without the scope of the tool it calls is refused with 403 insufficient_scope before dispatch; an API key is not',
    ),
    async () => {
      const provider = new RecordingOAuthClient(REDIRECT);
      await authorizeWithSdk(provider, readerKey.key);
      expect(provider.saved?.scope).toBe('memories:read');
      const refused = await mcpStatus(provider.saved?.access_token ?? '', {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'create_memory', arguments: { content: 'x', type: 'long-term' } },
      });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('www-authenticate')).toBe(
        `Bearer error="insufficient_scope", scope="memories:read memories:write", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", error_description="the token lacks a scope this tool needs"`,
      );
      expect(await count('memories')).toBeGreaterThanOrEqual(0);
      const allowed = await mcpStatus(provider.saved?.access_token ?? '', {
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/call',
        params: { name: 'recall', arguments: { query: 'anything' } },
      });
      expect(allowed.status).toBe(200);
      // A per-agent key keeps the tool's own FORBIDDEN result (HTTP 200).
      const keyCall = await mcpStatus(readerKey.key, {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'create_memory', arguments: { content: 'x', type: 'long-term' } },
      });
      expect(keyCall.status).toBe(200);
    },
  );

  it(
    verifies(
      'AUTH-SESSION-AUDIENCE',
      'GET /auth/session refuses an OAuth access token with 401 and answers for a session; /mcp takes both',
    ),
    async () => {
      const provider = new RecordingOAuthClient(REDIRECT);
      await authorizeWithSdk(provider, aliceKey.key);
      const access = provider.saved?.access_token ?? '';
      const sessionOf = (bearer: string) => fetch(`${base}/auth/session`, { headers: { authorization: `Bearer ${bearer}` } });
      expect((await sessionOf(access)).status).toBe(401);
      expect((await mcpStatus(access)).status).toBe(200);
      const issued = await fetch(`${base}/auth/session`, { method: 'POST', headers: { authorization: `Bearer ${aliceKey.key}` } });
      const session = ((await issued.json()) as { token: string }).token;
      const own = await sessionOf(session);
      expect([own.status, ((await own.json()) as { userId: string }).userId]).toEqual([200, 'alice']);
      expect((await mcpStatus(session)).status).toBe(200);
    },
  );

  it(
    verifies('OAUTH-AUDIENCE', 'a token signed with our secret for another audience is refused; API-key sessions keep working'),
    async () => {
      const now = Math.floor(clock.now().getTime() / 1000);
      const forged = await new SignJWT({ scope: 'memories:read', via: 'api-key', client_id: 'mcp_x' })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject('alice')
        .setIssuer('memsvc')
        .setAudience('https://other.example/mcp')
        .setJti('6f1b7c8e-2c1a-4a8e-9d43-2f1b7c8e2c1a')
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(new TextEncoder().encode(JWT_SECRET));
      expect((await mcpStatus(forged)).status).toBe(401);
      const session = await fetch(`${base}/auth/session`, { method: 'POST', headers: { authorization: `Bearer ${aliceKey.key}` } });
      expect(session.status).toBe(201);
      expect((await mcpStatus(((await session.json()) as { token: string }).token)).status).toBe(200);
    },
  );

  describe('refusals, each storing nothing', () => {
    let clientId = '';
    beforeAll(async () => {
      const registered = await fetch(`${base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'refusals', token_endpoint_auth_method: 'none' }),
      });
      expect(registered.status).toBe(201);
      clientId = ((await registered.json()) as { client_id: string }).client_id;
      // A client that asks for a secret is registered as public all the same, and told so.
      const asksSecret = await fetch(`${base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_post' }),
      });
      const answer = (await asksSecret.json()) as Record<string, unknown>;
      expect(answer).toMatchObject({ token_endpoint_auth_method: 'none' });
      expect(answer).not.toHaveProperty('client_secret');
    });
    const authorizeUrl = (overrides: Record<string, string | undefined>) => {
      const params: Record<string, string | undefined> = {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: S256,
        code_challenge_method: 'S256',
        state: 'st-1',
        resource: mcpUrl,
        ...overrides,
      };
      const url = new URL(`${base}/oauth/authorize`);
      for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
      return url;
    };

    it(
      verifies(
        'OAUTH-PKCE',
        'authorize without a challenge or with plain is refused on an error page naming the challenge; a wrong verifier is invalid_grant and spends the code',
      ),
      async () => {
        const before = await counts();
        for (const overrides of [
          { code_challenge: undefined, code_challenge_method: undefined },
          { code_challenge_method: 'plain' },
          { code_challenge_method: undefined },
        ]) {
          const answer = await fetch(authorizeUrl(overrides), { redirect: 'manual' });
          expect(answer.status).toBe(400);
          expect(answer.headers.get('location')).toBeNull();
          expect(await answer.text()).toMatch(/code_challenge/);
        }
        expect(await counts()).toEqual(before);

        const provider = new RecordingOAuthClient(REDIRECT);
        provider.info = { client_id: clientId };
        expect(await auth(provider, { serverUrl: mcpUrl })).toBe('REDIRECT');
        const { decision } = await consent(provider.authorizationUrl ?? '', { apiKey: aliceKey.key });
        const code = new URL(decision.headers.get('location') ?? '').searchParams.get('code') ?? '';
        const exchange = (verifier: string) =>
          token({
            grant_type: 'authorization_code',
            code,
            code_verifier: verifier,
            client_id: clientId,
            redirect_uri: REDIRECT,
            resource: mcpUrl,
          });
        const wrong = await exchange('w'.repeat(43));
        expect([wrong.status, await wrong.json()]).toEqual([400, expect.objectContaining({ error: 'invalid_grant' })]);
        const reused = await exchange(provider.verifier);
        expect(await reused.json()).toMatchObject({ error: 'invalid_grant' });
        expect(await liveCodes()).toBe(0);
      },
    );

    it(
      verifies(
        'OAUTH-CODE-ONCE',
        'a code is used once; a second exchange is invalid_grant and revokes what the first obtained; another redirect URI or client is invalid_grant; a code past its minute is too',
      ),
      async () => {
        const provider = new RecordingOAuthClient(REDIRECT);
        provider.info = { client_id: clientId };
        const codeFor = async () => {
          expect(await auth(provider, { serverUrl: mcpUrl })).toBe('REDIRECT');
          const { decision } = await consent(provider.authorizationUrl ?? '', { apiKey: aliceKey.key });
          return new URL(decision.headers.get('location') ?? '').searchParams.get('code') ?? '';
        };
        const exchange = (code: string, overrides: Record<string, string> = {}) =>
          token({
            grant_type: 'authorization_code',
            code,
            code_verifier: provider.verifier,
            client_id: clientId,
            redirect_uri: REDIRECT,
            ...overrides,
          });
        const code = await codeFor();
        const first = await exchange(code);
        expect(first.status).toBe(200);
        const issued = (await first.json()) as { access_token: string; refresh_token: string };
        expect((await mcpStatus(issued.access_token)).status).toBe(200);
        // The code presented again (an interceptor replaying it): refused, and what its first use
        // obtained is ended — the access token at once, the refresh token for good.
        expect(await (await exchange(code)).json()).toMatchObject({ error: 'invalid_grant' });
        expect((await mcpStatus(issued.access_token)).status).toBe(401);
        expect(
          await (await token({ grant_type: 'refresh_token', refresh_token: issued.refresh_token, client_id: clientId })).json(),
        ).toMatchObject({ error: 'invalid_grant' });
        expect(await (await exchange(await codeFor(), { redirect_uri: `${REDIRECT}/` })).json()).toMatchObject({ error: 'invalid_grant' });
        expect(await (await exchange(await codeFor(), { client_id: 'mcp_someone_else' })).json()).toMatchObject({ error: 'invalid_grant' });
        expect(await (await exchange(await codeFor(), { resource: 'https://other.example/mcp' })).json()).toMatchObject({
          error: 'invalid_target',
        });
        const late = await codeFor();
        clock.advance(60_000);
        expect(await (await exchange(late)).json()).toMatchObject({ error: 'invalid_grant' });
        // What is left are redeemed codes, kept until the sweep so a replay is recognised.
        const left = await server.store.connection.db.selectFrom('oauth_codes').select('redeemed_at').execute();
        expect(left.every((row) => row.redeemed_at !== null)).toBe(true);
      },
    );

    it('an authorize page left open past ten minutes is expired: its consent is refused and redirects nowhere', async () => {
      const page = await fetch(authorizeUrl({}), { redirect: 'manual' });
      const html = await page.text();
      const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? '';
      clock.advance(600_000);
      const late = await fetch(`${base}/oauth/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
        },
        body: new URLSearchParams({ handle, decision: 'approve', api_key: aliceKey.key }).toString(),
      });
      expect(late.status).toBe(400);
      expect(late.headers.get('location')).toBeNull();
      expect(await liveCodes()).toBe(0);
    });

    it(
      verifies(
        'OAUTH-REDIRECT-URI',
        'an unknown client, a redirect URI differing by a trailing slash or unregistered is shown an error page and never redirected',
      ),
      async () => {
        const before = await counts();
        for (const overrides of [
          { client_id: 'mcp_unknown' },
          { redirect_uri: `${REDIRECT}/` },
          // Another port of the registered loopback redirect is the same redirect (RFC 8252); another path is not.
          { redirect_uri: `${new URL(REDIRECT).origin}/elsewhere` },
          { redirect_uri: 'http://127.0.0.1:47124/elsewhere' },
          { redirect_uri: 'javascript:alert(1)' },
        ]) {
          const answer = await fetch(authorizeUrl(overrides), { redirect: 'manual' });
          expect(answer.status, JSON.stringify(overrides)).toBe(400);
          expect(answer.headers.get('location')).toBeNull();
          expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
        }
        expect(await counts()).toEqual(before);
      },
    );

    it(
      verifies(
        'OAUTH-AUTHORIZE-NO-REDIRECT',
        'a refused authorization request of a self-registered client (registered or metadata document) is a 400 error page, never a redirect to its redirect URI',
      ),
      async () => {
        // An attacker registers a client whose redirect URI is their own page, then links people
        // to a request that fails: the server must not bounce them there (RFC 9700 §4.11.2).
        const attacker = 'https://attacker.example/land';
        const registered = await fetch(`${base}/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: [attacker], client_name: 'open redirect', token_endpoint_auth_method: 'none' }),
        });
        const registeredId = ((await registered.json()) as { client_id: string }).client_id;
        const documentId = `${metadataHost.url}/redirector.json`;
        documents.set('/redirector.json', { client_id: documentId, client_name: 'open redirect', redirect_uris: [attacker] });
        const before = await counts();
        for (const client_id of [registeredId, documentId]) {
          for (const overrides of [
            { code_challenge: undefined },
            { code_challenge_method: 'plain' },
            { response_type: 'token' },
            { scope: 'admin' },
            { resource: 'https://elsewhere.example/mcp' },
          ]) {
            const label = `${client_id} ${JSON.stringify(overrides)}`;
            const answer = await fetch(authorizeUrl({ client_id, redirect_uri: attacker, ...overrides }), { redirect: 'manual' });
            expect(answer.status, label).toBe(400);
            expect(answer.headers.get('location'), label).toBeNull();
            expect(answer.headers.get('content-type'), label).toMatch(/^text\/html/);
            expect(answer.headers.get('content-security-policy'), label).toContain("frame-ancestors 'none'");
            expect(await answer.text(), label).toContain('cannot be completed');
          }
        }
        expect(await counts()).toEqual(before);
      },
    );

    it('registration with a javascript: or data: redirect URI, another grant type or a 1 MB body is refused as RFC 7591 says', async () => {
      const before = await counts();
      const register = (body: string) =>
        fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      for (const uri of ['javascript:alert(1)', 'data:text/html,x', 'https://app.example.com/cb#x', 'http://app.example.com/cb']) {
        const answer = await register(JSON.stringify({ redirect_uris: [uri] }));
        expect([answer.status, await answer.json()]).toEqual([400, expect.objectContaining({ error: 'invalid_redirect_uri' })]);
      }
      const badGrant = await register(JSON.stringify({ redirect_uris: [REDIRECT], grant_types: ['password'] }));
      expect(await badGrant.json()).toMatchObject({ error: 'invalid_client_metadata' });
      const huge = await register(JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'x'.repeat(1024 * 1024) }));
      expect(huge.status).toBe(413);
      expect(huge.headers.get('connection')).toBe('close');
      expect(await huge.json()).toMatchObject({ error: 'invalid_client_metadata' });
      expect(await (await register('[]')).json()).toMatchObject({ error: 'invalid_client_metadata' });
      expect(await counts()).toEqual(before);
    });

    it('a metadata-document client on a private address, or whose document names another client_id, is refused', async () => {
      const before = await counts();
      documents.set('/impostor.json', { client_id: 'https://claude.ai/oauth/client.json', redirect_uris: [REDIRECT] });
      for (const id of [
        'https://127.0.0.1/client.json',
        'https://[::1]/client.json',
        'https://169.254.169.254/latest/meta-data',
        'https://10.0.0.8/c.json',
        `${metadataHost.url}/impostor.json`,
        `${metadataHost.url}/missing.json`,
      ]) {
        const answer = await fetch(authorizeUrl({ client_id: id }), { redirect: 'manual' });
        expect(answer.status, id).toBe(400);
        expect(answer.headers.get('location')).toBeNull();
      }
      expect(await counts()).toEqual(before);
    });

    it(
      verifies(
        'OAUTH-CONSENT',
        'consent needs the cookie of the browser that opened the page, a valid key, and grants at most what the key holds',
      ),
      async () => {
        const before = await counts();
        const noCookie = await consent(authorizeUrl({}), { apiKey: aliceKey.key, cookie: null });
        expect(noCookie.decision.status).toBe(403);
        const badKey = await consent(authorizeUrl({}), { apiKey: 'msk_not-a-key' });
        expect(badKey.decision.status).toBe(401);
        expect(badKey.decision.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
        expect((await counts()).codes).toBe(before.codes);
        const denied = await consent(authorizeUrl({}), { decision: 'deny' });
        const back = new URL(denied.decision.headers.get('location') ?? '');
        expect([back.searchParams.get('error'), back.searchParams.get('iss')]).toEqual(['access_denied', base]);
        const narrowed = await consent(authorizeUrl({ scope: 'memories:read memories:delete' }), { apiKey: readerKey.key });
        expect(new URL(narrowed.decision.headers.get('location') ?? '').searchParams.get('code')).toBeTruthy();
        const grant = await server.store.connection.db
          .selectFrom('oauth_codes')
          .select('scopes')
          .where('redeemed_at', 'is', null)
          .executeTakeFirstOrThrow();
        expect(grant.scopes).toEqual(['memories:read']);
        const unknownScope = await fetch(authorizeUrl({ scope: 'admin' }), { redirect: 'manual' });
        expect([unknownScope.status, unknownScope.headers.get('location')]).toEqual([400, null]);
        expect(await unknownScope.text()).toContain('scope may list only');
      },
    );
  });
});
