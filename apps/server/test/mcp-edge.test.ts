import { createMcpServer } from '@memsvc/mcp-tools';
import { createLogger, type MemsvcRuntime, openRuntime, rateLimitUnauthenticated } from '@memsvc/runtime';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifies } from '../../../packages/core/test/requirements.js';
import { credentialPrincipals } from '../src/credential-principals.js';
import { createHttpApp, HealthChecker, mcpToolDependencies, readServerConfig, SERVER_NAME, SERVER_VERSION } from '../src/index.js';
import { MCP_MAX_BODY_BYTES } from '../src/mcp-http-route.js';
import { rateLimitRequest } from '../src/rate-limit-hook.js';
import { storeApiKey } from './support/bearer-clients.js';
import { e2eEngines } from './support/tool-calls.js';

const jsonRpc = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const pingCall = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', arguments: {} } });
const nested = (depth: number) =>
  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping","arguments":{},"_meta":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}}`;

/**
 * A request as Hono's node adapter hands it over: the body's chunks, and the socket's peer, so
 * the per-address limit sees a client as it does on a real connection.
 */
const fromPeer = (remoteAddress: string, body: string) => ({
  incoming: {
    socket: { remoteAddress },
    async *[Symbol.asyncIterator]() {
      yield Buffer.from(body);
    },
  },
});

/**
 * The edge of `/mcp` in process (Hono's app.request over a real runtime, on each engine): when the
 * credential is checked, what a body may hold, and what a refused body costs its caller (issue 37).
 */
describe.each(e2eEngines('memsvc_mcp_edge'))('/mcp at the edge on $name', (engine) => {
  let runtime: MemsvcRuntime;
  let app: Hono;
  const USER_LIMIT = 3;
  const ADDRESS_LIMIT = 2;

  beforeAll(async () => {
    const { config } = readServerConfig(
      {
        DATABASE_URL: await engine.database(),
        DEPLOYMENT_PROFILE: 'standard',
        MCP_TRANSPORT: 'streamable-http',
        AUTH_REQUIRED: 'true',
        JWT_SECRET: 'e'.repeat(40),
        EMBEDDING_PROVIDER: 'local',
        RATE_LIMIT_ENABLED: 'true',
        RATE_LIMIT_WINDOW_SEC: '3600',
        RATE_LIMIT_USER_RPM: String(USER_LIMIT),
        RATE_LIMIT_IP_RPM: String(ADDRESS_LIMIT),
      },
      '/tmp',
    );
    const logger = createLogger('error', { write: () => undefined });
    runtime = await openRuntime(config, { applicationName: 'mcp-edge-test', logger });
    const tools = mcpToolDependencies(runtime);
    const limits = { settings: config.rateLimit, store: runtime.store.rateLimits, clock: runtime.clock };
    app = createHttpApp({
      config,
      health: new HealthChecker(runtime.store, config.profile),
      metrics: runtime.metrics,
      logger,
      createMcpServer: () => createMcpServer({ name: SERVER_NAME, version: SERVER_VERSION }, tools),
      findCredential: credentialPrincipals(runtime),
      limitUnauthenticated: rateLimitUnauthenticated(limits),
      limitRefusedBody: rateLimitRequest({ ...limits, defaultUserId: undefined }),
    });
  });
  afterAll(async () => {
    await runtime?.close();
  });

  const post = (key: string, body: string, env?: unknown) =>
    app.request('/mcp', { method: 'POST', headers: { ...jsonRpc, authorization: `Bearer ${key}` }, body }, env);

  it(
    verifies('R-EDGE-MCP-AUTH-AFTER-BODY', 'a key revoked after the headers arrived but before the body did runs nothing: 401'),
    async () => {
      const { id, key } = await storeApiKey(runtime.store, { user: 'revoked-mid-body', name: 'slow client', scopes: ['memories:read'] });
      let bodyWanted!: () => void;
      const wanted = new Promise<void>((resolve) => {
        bodyWanted = resolve;
      });
      let send!: ReadableStreamDefaultController<Uint8Array>;
      // highWaterMark 0: `pull` runs only once the server reads the body, i.e. after the headers were handled.
      const body = new ReadableStream<Uint8Array>(
        {
          start: (controller) => {
            send = controller;
          },
          pull: () => bodyWanted(),
        },
        { highWaterMark: 0 },
      );
      const answer = app.request('/mcp', {
        method: 'POST',
        headers: { ...jsonRpc, authorization: `Bearer ${key}` },
        body,
        duplex: 'half',
      } as RequestInit);
      await wanted;
      await runtime.store.apiKeys.revoke(id, new Date());
      send.enqueue(new TextEncoder().encode(pingCall));
      send.close();
      const response = await answer;
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32001);
    },
  );

  it(verifies('R-EDGE-MCP-AUTH-AFTER-BODY', 'a request without a bearer token is refused before its body is read'), async () => {
    let read = false;
    const body = new ReadableStream<Uint8Array>(
      {
        pull: () => {
          read = true;
        },
      },
      { highWaterMark: 0 },
    );
    const response = await app.request('/mcp', { method: 'POST', headers: jsonRpc, body, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(401);
    expect(read).toBe(false);
    await body.cancel();
  });

  it(verifies('R-EDGE-JSON-DEPTH', 'a body nested deeper than 64 levels is refused before parsing; 64 levels is served'), async () => {
    const { key } = await storeApiKey(runtime.store, { user: 'deep-bodies', name: 'deep', scopes: ['memories:read'] });
    // The message itself takes three levels (the request, params, _meta) and the array the rest.
    const served = await post(key, nested(61));
    expect(served.status).toBe(200);
    expect(((await served.json()) as { result?: unknown }).result).toBeDefined();
    const refused = await post(key, nested(62));
    expect(refused.status).toBe(400);
    // The rest of such a body is not read, so its connection is not reused.
    expect(refused.headers.get('connection')).toBe('close');
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'request body nests arrays and objects deeper than 64 levels' },
      id: null,
    });
    // The finding's body: 3.8 MB of one array nested two million deep, refused at once.
    const started = performance.now();
    const flood = await post(key, `{"x":${'['.repeat(1_900_000)}${']'.repeat(1_900_000)}}`);
    expect(flood.status).toBe(400);
    expect(performance.now() - started).toBeLessThan(1000);
    // Brackets inside strings are text, not nesting.
    const inText = await post(
      key,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'ping', arguments: {}, _meta: { t: '['.repeat(500) } },
      }),
    );
    expect(inText.status).toBe(200);
  });

  it(verifies('R-EDGE-REFUSED-BODY-COUNTED', "an authenticated caller's refused bodies count against its user's limit"), async () => {
    const { key } = await storeApiKey(runtime.store, { user: 'refused-bodies', name: 'noisy', scopes: ['memories:read'] });
    const refusals = [
      await post(key, '{"jsonrpc": "2.0", '),
      await post(key, nested(100)),
      await post(key, 'x'.repeat(MCP_MAX_BODY_BYTES + 1)),
    ];
    expect(refusals.map((response) => response.status)).toEqual([400, 400, 413]);
    // The user's three calls are spent: the next body is refused for the limit, and so is a valid call.
    const limited = await post(key, '{');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const call = await post(key, pingCall);
    const result = (await call.json()) as { result?: { isError?: boolean; structuredContent?: { error?: { code?: string } } } };
    expect(result.result?.isError).toBe(true);
    expect(result.result?.structuredContent?.error?.code).toBe('RATE_LIMITED');
  });

  it(verifies('R-EDGE-REFUSED-BODY-COUNTED', 'a caller without a valid credential pays for its refused bodies by address'), async () => {
    const statuses = [];
    for (let i = 0; i < ADDRESS_LIMIT + 1; i++)
      statuses.push((await post('not-a-key', nested(100), fromPeer('2001:db8:7:7::1', nested(100)))).status);
    expect(statuses).toEqual([401, 401, 429]);
    // Another address in the same /64 shares the bucket (R-EDGE-IPV6-NETWORK); one in another /64 does not.
    expect((await post('not-a-key', '{', fromPeer('2001:db8:7:7::2', '{'))).status).toBe(429);
    expect((await post('not-a-key', '{', fromPeer('2001:db8:7:8::1', '{'))).status).toBe(401);
  });
});
