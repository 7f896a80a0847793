import type { Scope } from '@memsvc/access';
import { toTenantId } from '@memsvc/core';
import { type MemsvcStore, openStore } from '@memsvc/store-pg';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../tooling/vitest/test-databases.ts';
import { BearerClients, storeApiKey } from './support/bearer-clients.js';
import { type ServerProcess, startHttpServer } from './support/server-process.js';
import { call } from './support/tool-calls.js';

const pgUrl = inject('pgvectorTestUrl');
const WINDOW_SEC = 3600;
const ALL: Scope[] = ['memories:read', 'memories:write', 'memories:delete'];

/**
 * The rate limiter of spec §8 end to end: two replicas on one PostgreSQL share the counters, so
 * many concurrent calls spread over both admit exactly the limit — per user, per organization,
 * per tool, and per address for requests without a valid credential (HTTP 429).
 */
describe.skipIf(!pgUrl)('rate limits shared by two replicas on PostgreSQL', () => {
  let database: TestDatabase;
  let store: MemsvcStore;
  let replicas: ServerProcess[] = [];
  const keys: Record<string, string> = {};
  const clients = new BearerClients();

  const issue = async (name: string, user: string, organizationId?: string) => {
    keys[name] = (await storeApiKey(store, { user, name, scopes: ALL, ...(organizationId ? { organizationId } : {}) })).key;
  };
  const connect = (replica: ServerProcess, key: string) => clients.connect(replica.url, key);
  /** `count` concurrent calls of a tool, alternating between two clients (one per replica). */
  const burst = async (pair: Client[], tool: string, args: Record<string, unknown>, count: number) => {
    const results = await Promise.all(Array.from({ length: count }, (_, i) => call(pair[i % pair.length] as Client, tool, args)));
    const refused = results.filter((result) => result.isError);
    for (const result of refused) {
      expect(result.body.error).toMatchObject({ code: 'RATE_LIMITED', data: { retryAfterSeconds: expect.any(Number) } });
    }
    return { admitted: results.length - refused.length, refused };
  };
  const connectBoth = async (key: string) => Promise.all(replicas.map((replica) => connect(replica, key)));

  beforeAll(async () => {
    // Windows are aligned to the epoch: start well inside one, so the counters cannot roll over mid-test.
    const intoWindow = (Date.now() / 1000) % WINDOW_SEC;
    if (WINDOW_SEC - intoWindow < 60) await new Promise((resolve) => setTimeout(resolve, (WINDOW_SEC - intoWindow + 1) * 1000));
    database = await createTestDatabase(pgUrl ?? '', 'memsvc_rate_limits');
    store = await openStore({ database: database.url, pool: { maxConnections: 2 } });
    const acme = await store.organizations.create({ name: 'Acme', slug: 'acme', owner: toTenantId('bob') });
    await store.organizations.addMember({ organizationId: acme.id, userId: toTenantId('carol'), role: 'member' });
    await issue('alice', 'alice');
    await issue('bob', 'bob', acme.id);
    await issue('carol', 'carol', acme.id);
    await issue('dave', 'dave');
    await issue('erin', 'erin');
    const env = {
      DATABASE_URL: database.url,
      DEPLOYMENT_PROFILE: 'standard',
      AUTH_REQUIRED: 'true',
      JWT_SECRET: 'r'.repeat(40),
      RATE_LIMIT_ENABLED: 'true',
      RATE_LIMIT_WINDOW_SEC: String(WINDOW_SEC),
      RATE_LIMIT_USER_RPM: '20',
      RATE_LIMIT_ORG_RPM: '30',
      RATE_LIMIT_IP_RPM: '10',
      RATE_LIMIT_TOOL_OVERRIDES: JSON.stringify({ recall: { limit: 5, windowSeconds: WINDOW_SEC } }),
    };
    replicas = await Promise.all([startHttpServer(env), startHttpServer(env)]);
  });
  afterAll(async () => {
    await clients.closeAll();
    for (const replica of replicas) await replica.stop();
    await store?.close();
    await database?.drop();
  });

  it('admits exactly a user’s limit across both replicas, and says when to retry', async () => {
    const alice = await connectBoth(keys.alice ?? '');
    const { admitted, refused } = await burst(alice, 'list_memories', {}, 40);
    expect(admitted).toBe(20);
    expect(refused).toHaveLength(20);
    const retry = refused[0]?.body.error.data.retryAfterSeconds as number;
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(WINDOW_SEC);
    expect(refused[0]?.body.error.message).toContain('RATE_LIMIT_USER_RPM');
    // Another user's budget is untouched.
    const dave = await connectBoth(keys.dave ?? '');
    expect((await burst(dave, 'list_memories', {}, 3)).admitted).toBe(3);
  });

  it('adds up an organization’s users, and a call refused by the organization costs its user nothing', async () => {
    const bob = await connectBoth(keys.bob ?? '');
    const carol = await connectBoth(keys.carol ?? '');
    expect((await burst(bob, 'list_memories', {}, 20)).admitted).toBe(20);
    const carols = await burst(carol, 'list_memories', {}, 20);
    expect(carols.admitted).toBe(10);
    expect(carols.refused[0]?.body.error.message).toContain('RATE_LIMIT_ORG_RPM');
    const rows = await store.connection.db.selectFrom('rate_limit_counters').select(['bucket', 'count']).execute();
    const count = (bucket: string) => rows.find((row) => row.bucket === bucket)?.count;
    expect(count('user:carol')).toBe(10);
    expect(rows.filter((row) => row.bucket.startsWith('org:')).map((row) => row.count)).toEqual([30]);
  });

  it('applies a tool’s own limit on top of the user’s', async () => {
    const dave = await connectBoth(keys.dave ?? '');
    const recalls = await burst(dave, 'recall', { query: 'anything' }, 9);
    expect(recalls.admitted).toBe(5);
    expect(recalls.refused[0]?.body.error.message).toContain('RATE_LIMIT_TOOL_OVERRIDES');
    // dave has used 3 + 5 of his 20: other tools still answer.
    expect((await burst(dave, 'list_memories', {}, 2)).admitted).toBe(2);
  });

  it('counts a refused admin call, so guesses of the admin token stop at the caller’s limit', async () => {
    const erin = await connectBoth(keys.erin ?? '');
    const jobId = '00000000-0000-7000-8000-000000000000';
    const guesses = await Promise.all(
      Array.from({ length: 24 }, (_, i) => call(erin[i % 2] as Client, 'get_reindex_status', { adminToken: `guess-${i}`, jobId })),
    );
    const codes = guesses.map((guess) => guess.body.error?.code);
    expect(codes.filter((code) => code === 'FORBIDDEN')).toHaveLength(20);
    expect(codes.filter((code) => code === 'RATE_LIMITED')).toHaveLength(4);
  });

  it('limits requests without a valid credential per address with HTTP 429 and Retry-After', async () => {
    const [first, second] = replicas as [ServerProcess, ServerProcess];
    const attempt = (replica: ServerProcess) =>
      fetch(`${replica.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer msk_guess' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', arguments: {} } }),
      });
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => attempt(i % 2 === 0 ? first : second)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
    const limited = answers.find((answer) => answer.status === 429);
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    // A valid credential is not counted by address: alice is refused for her own limit, not the address's.
    const alice = await connect(first, keys.alice ?? '');
    expect((await call(alice, 'list_memories', {})).body.error.message).toContain('RATE_LIMIT_USER_RPM');

    // Each replica counts its own refusals; together they saw every kind of limit.
    const scraped = await Promise.all(replicas.map(async (replica) => (await fetch(`${replica.url}/health/metrics`)).text()));
    const refusedOf = (kind: string) =>
      scraped.reduce(
        (sum, text) => sum + Number(new RegExp(`memsvc_rate_limited_total\\{kind="${kind}"\\} (\\d+)`).exec(text)?.[1] ?? 0),
        0,
      );
    expect({ user: refusedOf('user'), org: refusedOf('org'), tool: refusedOf('tool'), ip: refusedOf('ip') }).toEqual({
      // alice's 20 and 1, erin's 4 guesses of the admin token.
      user: 25,
      org: 10,
      tool: 4,
      ip: 6,
    });
    for (const text of scraped) expect(text).not.toMatch(/alice|carol|msk_/);
  });
});

/**
 * An open server (ALLOW_UNAUTHENTICATED_HTTP) behind a trusted proxy: every caller is counted by
 * the client address the proxy names, so two clients behind one proxy have budgets of their own,
 * and a header from an untrusted peer would be ignored.
 */
describe('the per-address limit of an open server behind a trusted proxy (PGlite)', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startHttpServer({
      DATABASE_URL: 'pglite://memory',
      DEPLOYMENT_PROFILE: 'standard',
      ALLOW_UNAUTHENTICATED_HTTP: 'true',
      MEMSVC_DEFAULT_USER_ID: 'shared',
      RATE_LIMIT_ENABLED: 'true',
      RATE_LIMIT_WINDOW_SEC: String(WINDOW_SEC),
      RATE_LIMIT_IP_RPM: '6',
      RATE_LIMIT_TOOL_OVERRIDES: JSON.stringify({ recall: { limit: 2, windowSeconds: WINDOW_SEC } }),
      MEMSVC_TRUSTED_PROXIES: '127.0.0.1,::1',
      // With a JWT_SECRET the session and login endpoints exist: they count by address too.
      JWT_SECRET: 's'.repeat(40),
      MEMSVC_SERVE_DASHBOARD: 'true',
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const toolCall = (client: string, name: string, args: Record<string, unknown>) =>
    fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-forwarded-for': client },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    });

  it('gives each forwarded client its own budget, and a tool override per address on top', async () => {
    const first = [];
    for (let i = 0; i < 8; i++) first.push((await toolCall('6.6.6.6, 198.51.100.1', 'list_memories', {})).status);
    expect(first).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    // The spoofed left entry is not who was counted: 6.6.6.6 has its whole budget.
    expect((await toolCall('6.6.6.6', 'list_memories', {})).status).toBe(200);

    const recalls = [];
    for (let i = 0; i < 3; i++) {
      const answer = await toolCall('198.51.100.2', 'recall', { query: 'anything' });
      recalls.push(((await answer.json()) as { result: { isError?: boolean; structuredContent: { error?: { code: string } } } }).result);
    }
    expect(recalls.map((result) => result.structuredContent.error?.code ?? 'ok')).toEqual(['ok', 'ok', 'RATE_LIMITED']);
  });

  it('counts the ways in that need no credential yet against the address: sessions, logins, dashboard sign-in', async () => {
    const mint = (client: string) =>
      fetch(`${server.url}/auth/session`, { method: 'POST', headers: { authorization: 'Bearer msk_guess', 'x-forwarded-for': client } });
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await mint('198.51.100.4')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429]);
    const refused = await mint('198.51.100.4');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    // The same address is refused at the dashboard's sign-in, whose page itself is not counted.
    expect((await fetch(`${server.url}/dashboard/sign-in`, { headers: { 'x-forwarded-for': '198.51.100.4' } })).status).toBe(200);
    const signIn = await fetch(`${server.url}/dashboard/sign-in/key`, {
      method: 'POST',
      headers: { 'x-forwarded-for': '198.51.100.4', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'key=msk_guess',
    });
    expect(signIn.status).toBe(429);
    // Another address is not affected.
    expect((await mint('198.51.100.5')).status).toBe(401);
  });

  it('counts every message of a JSON-RPC batch against the address', async () => {
    const batch = (client: string, size: number) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-forwarded-for': client },
        body: JSON.stringify(
          Array.from({ length: size }, (_, id) => ({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name: 'list_memories', arguments: {} },
          })),
        ),
      });
    const five = await batch('198.51.100.3', 5);
    expect(five.status).toBe(200);
    expect(await five.json()).toHaveLength(5);
    // 5 of the address's 6 are spent: a second batch of 5 is refused, and so is what follows.
    const again = await batch('198.51.100.3', 5);
    expect([again.status, Number(again.headers.get('retry-after')) > 0]).toEqual([429, true]);
    expect((await toolCall('198.51.100.3', 'list_memories', {})).status).toBe(429);
  });
});
