import { request as httpRequest } from 'node:http';
import type { Scope } from '@memsvc/access';
import { mintApiKey } from '@memsvc/auth';
import { toTenantId } from '@memsvc/core';
import { type MemsvcStore, openStore } from '@memsvc/store-pg';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../tooling/vitest/test-databases.ts';
import { BearerClients, pingStatus as pingAt, storeApiKey } from './support/bearer-clients.js';
import { type ServerProcess, startHttpServer } from './support/server-process.js';
import { call, type Structured } from './support/tool-calls.js';

const pgUrl = inject('pgvectorTestUrl');
const JWT_SECRET = 'j'.repeat(48);
const ALL: Scope[] = ['memories:read', 'memories:write', 'memories:delete'];

interface SessionBody {
  token: string;
  tokenType: string;
  expiresAt: string;
  expiresIn: number;
  userId: string;
  scopes: string[];
}

/**
 * Session JWTs and operator delegation end to end: two replicas of the standard profile with
 * AUTH_REQUIRED=true on one PostgreSQL. A key is exchanged for a session, the session drives
 * tools as its user, logout denies it on both replicas, and every forged or stale token is
 * refused with 401 and changes nothing.
 */
describe.skipIf(!pgUrl)('session JWTs and operator delegation (two replicas on PostgreSQL)', () => {
  let database: TestDatabase;
  let store: MemsvcStore;
  let replicas: ServerProcess[] = [];
  const keys: Record<string, { id: string; key: string }> = {};
  const clients = new BearerClients();

  const connect = (replica: ServerProcess, token: string) => clients.connect(replica.url, token);
  const issueKey = async (name: string, user: string, scopes: Scope[]) => {
    keys[name] = await storeApiKey(store, { user, name, scopes });
  };
  const exchange = (replica: ServerProcess, bearer: string, body?: unknown) =>
    fetch(`${replica.url}/auth/session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'user-agent': 'sessions-e2e' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const session = async (replica: ServerProcess, key: string, body?: unknown) => {
    const response = await exchange(replica, key, body);
    expect(response.status).toBe(201);
    return (await response.json()) as SessionBody;
  };
  const pingStatus = (replica: ServerProcess, bearer: string) => pingAt(replica.url, bearer);

  beforeAll(async () => {
    database = await createTestDatabase(pgUrl ?? '', 'memsvc_sessions');
    store = await openStore({ database: database.url, pool: { maxConnections: 2 } });
    await issueKey('alice-agent', 'alice', ALL);
    await issueKey('bob-agent', 'bob', ALL);
    await issueKey('operator', 'ops', [...ALL, 'admin']);
    await issueKey('bob-admin', 'bob', [...ALL, 'admin']);
    const env = {
      DATABASE_URL: database.url,
      DEPLOYMENT_PROFILE: 'standard',
      AUTH_REQUIRED: 'true',
      JWT_SECRET,
      JWT_EXPIRES_IN: '1h',
      MEMSVC_OPERATOR_TENANTS: 'carol,dana',
    };
    replicas = await Promise.all([startHttpServer(env), startHttpServer(env)]);
  });
  afterAll(async () => {
    await clients.closeAll();
    for (const replica of replicas) await replica.stop();
    await store?.close();
    await database?.drop();
  });

  it('exchanges an API key for a session that acts as the key’s user, on any replica, until it is logged out', async () => {
    const [first, second] = replicas as [ServerProcess, ServerProcess];
    const issued = await session(first, keys['alice-agent']?.key ?? '');
    expect(issued).toMatchObject({ tokenType: 'Bearer', userId: 'alice', scopes: ALL });
    expect(issued.expiresIn).toBeGreaterThan(3590);
    expect(issued.expiresIn).toBeLessThanOrEqual(3600);
    expect(issued.token.split('.')).toHaveLength(3);

    // The session works on the other replica too, as alice, whatever userId the input names.
    const alice = await connect(second, issued.token);
    const created = await call(alice, 'create_memory', { userId: 'bob', content: 'Alice prefers tea to coffee', type: 'long-term' });
    expect((await call(alice, 'get_memory', { memoryId: created.body.memory.id })).body.memory.userId).toBe('alice');
    const audit = await call(alice, 'get_memory_audit', { memoryId: created.body.memory.id });
    expect((audit.body.entries as Structured[])[0]?.actor).toMatch(/^session:[0-9a-f-]{36}$/);

    const whoami = await fetch(`${first.url}/auth/session`, { headers: { authorization: `Bearer ${issued.token}` } });
    expect(await whoami.json()).toMatchObject({ userId: 'alice', via: 'api-key', scopes: ALL });

    const logout = await fetch(`${second.url}/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${issued.token}` } });
    expect(logout.status).toBe(204);
    expect(await pingStatus(first, issued.token)).toBe(401);
    expect(await pingStatus(second, issued.token)).toBe(401);
    // Logging out twice is refused: the token is no longer a session.
    expect((await fetch(`${first.url}/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${issued.token}` } })).status).toBe(
      401,
    );
    const denied = await store.connection.db.selectFrom('jwt_denylist').selectAll().execute();
    expect(denied).toHaveLength(1);
    expect(denied[0]?.expires_at.toISOString()).toBe(new Date(Date.parse(issued.expiresAt)).toISOString());
  });

  it('AUTH-LIVE-ISSUE: a key revoked while its exchange waits for the request body opens no session (security review, finding 1)', async () => {
    const [first] = replicas as [ServerProcess];
    await issueKey('leaked', 'alice', ALL);
    const leaked = keys.leaked ?? { id: '', key: '' };
    // The attack as reproduced: the headers are sent, the body is held back, the key is revoked,
    // then the body is sent.
    const request = httpRequest(`${first.url}/auth/session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${leaked.key}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    const answered = new Promise<{ status: number | undefined; body: string }>((resolve, reject) => {
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8');
        });
        response.on('end', () => resolve({ status: response.statusCode, body }));
      });
      request.on('error', reject);
    });
    request.flushHeaders();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await store.apiKeys.revoke(leaked.id, new Date());
    request.end(JSON.stringify({ scopes: ['memories:read'] }));
    const { status, body } = await answered;
    expect([status, body]).toEqual([401, expect.stringContaining('UNAUTHENTICATED')]);
    const sessions = await store.sessions.listActive(toTenantId('alice'), new Date());
    expect(sessions.filter((session) => session.apiKeyId === leaked.id)).toEqual([]);
  });

  it('narrows a session’s scopes on request and never widens them', async () => {
    const [first] = replicas as [ServerProcess];
    const reader = await session(first, keys['alice-agent']?.key ?? '', { scopes: ['memories:read'] });
    expect(reader.scopes).toEqual(['memories:read']);
    const client = await connect(first, reader.token);
    expect((await call(client, 'recall', { query: 'tea' })).isError).toBe(false);
    const refused = await call(client, 'create_memory', { content: 'not allowed', type: 'long-term' });
    expect(refused.body.error.code).toBe('FORBIDDEN');

    const widen = await exchange(first, keys['alice-agent']?.key ?? '', { scopes: ['admin'] });
    expect(widen.status).toBe(400);
    expect(((await widen.json()) as Structured).error.message).toContain('admin');
    const garbage = await exchange(first, keys['alice-agent']?.key ?? '', { scopes: ['root'] });
    expect(garbage.status).toBe(400);
  });

  it('refuses forged, foreign, stale and malformed tokens with 401, on MCP and on the session endpoints', async () => {
    const [first] = replicas as [ServerProcess];
    const secret = new TextEncoder().encode(JWT_SECRET);
    const claims = { scope: ALL.join(' '), via: 'api-key' };
    const now = Math.floor(Date.now() / 1000);
    const signed = (alg: string, key: Uint8Array, edit: (jwt: SignJWT) => SignJWT = (jwt) => jwt) =>
      edit(
        new SignJWT(claims)
          .setProtectedHeader({ alg })
          .setSubject('alice')
          .setIssuer('memsvc')
          .setAudience('memsvc-api')
          .setJti(crypto.randomUUID())
          .setIssuedAt(now - 10)
          .setExpirationTime(now + 600),
      ).sign(key);
    const genuine = await session(first, keys['bob-agent']?.key ?? '');
    const [header, payload, signature] = genuine.token.split('.') as [string, string, string];
    const otherPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'alice' }),
    ).toString('base64url');
    const forged: Record<string, string> = {
      'control: a token we signed correctly': await signed('HS256', secret),
      'another secret': await signed('HS256', new TextEncoder().encode('x'.repeat(48))),
      'alg none': new UnsecuredJWT({ ...claims, sub: 'alice', iss: 'memsvc', aud: 'memsvc-api', jti: crypto.randomUUID() })
        .setExpirationTime(now + 600)
        .encode(),
      'alg HS512 with the right secret': await signed('HS512', secret),
      expired: await signed('HS256', secret, (jwt) => jwt.setIssuedAt(now - 7200).setExpirationTime(now - 3600)),
      'another audience': await signed('HS256', secret, (jwt) => jwt.setAudience('someone-else')),
      'another issuer': await signed('HS256', secret, (jwt) => jwt.setIssuer('evil')),
      'a payload swapped under a genuine signature': `${header}.${otherPayload}.${signature}`,
      'a truncated token': genuine.token.slice(0, -5),
      'three dots of nothing': 'a.b.c',
    };
    for (const [label, token] of Object.entries(forged)) {
      const expected = label.startsWith('control') ? 200 : 401;
      expect(await pingStatus(first, token), label).toBe(expected);
      if (expected === 401) {
        expect((await fetch(`${first.url}/auth/session`, { headers: { authorization: `Bearer ${token}` } })).status, label).toBe(401);
      }
    }
    // A session is not a credential to mint more sessions, and no header is no session.
    expect((await exchange(first, genuine.token)).status).toBe(401);
    expect((await fetch(`${first.url}/auth/session`, { method: 'POST' })).status).toBe(401);
    expect((await fetch(`${first.url}/auth/logout`, { method: 'POST' })).status).toBe(401);
    for (const replica of replicas) {
      expect(replica.stderr()).not.toContain(genuine.token);
      expect(replica.stderr()).not.toContain(signature);
      expect(replica.stderr()).not.toContain(JWT_SECRET);
    }
  });

  it('refuses a key once it expires, on both replicas, for MCP and for a session', async () => {
    const minted = mintApiKey();
    await store.apiKeys.create({
      userId: toTenantId('alice'),
      name: 'short-lived',
      scopes: ALL,
      prefix: minted.prefix,
      keyHash: minted.keyHash,
      expiresAt: new Date(Date.now() + 1500),
    });
    const [first, second] = replicas as [ServerProcess, ServerProcess];
    expect(await pingStatus(first, minted.key)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect(await pingStatus(first, minted.key)).toBe(401);
    expect(await pingStatus(second, minted.key)).toBe(401);
    expect((await exchange(first, minted.key)).status).toBe(401);
  });

  it('counts store and recall per agent: the key, or the key behind a session; never a token, jti or user id', async () => {
    const [first] = replicas as [ServerProcess];
    const bobKey = keys['bob-agent'] ?? { id: '', key: '' };
    const viaKey = await connect(first, bobKey.key);
    await call(viaKey, 'remember', { content: 'Bob counts his sheep at night' });
    const issued = await session(first, bobKey.key);
    const viaSession = await connect(first, issued.token);
    await call(viaSession, 'recall', { query: 'sheep' });
    const metrics = await (await fetch(`${first.url}/health/metrics`)).text();
    const agentLines = metrics.split('\n').filter((line) => line.startsWith('memsvc_agent_memory_operations_total{'));
    expect(agentLines).toContainEqual(expect.stringMatching(new RegExp(`agent="${bobKey.id}",op="store",status="success"`)));
    expect(agentLines).toContainEqual(expect.stringMatching(new RegExp(`agent="${bobKey.id}",op="recall",status="success"`)));
    const jti = JSON.parse(Buffer.from(issued.token.split('.')[1] ?? '', 'base64url').toString()).jti as string;
    for (const secret of [bobKey.key, issued.token, jti, 'bob"', 'alice"']) expect(metrics).not.toContain(secret);
  });

  it('lets an admin credential act on an operator tenant, audited as delegated, and on no other', async () => {
    const [first, second] = replicas as [ServerProcess, ServerProcess];
    const operator = await connect(first, keys.operator?.key ?? '');
    const created = await call(operator, 'create_memory', {
      userId: 'carol',
      content: 'Carol’s deploy window is Tuesday',
      type: 'long-term',
    });
    expect(created.isError).toBe(false);
    expect((await call(operator, 'get_memory', { userId: 'carol', memoryId: created.body.memory.id })).body.memory.userId).toBe('carol');
    const audit = await call(operator, 'get_memory_audit', { userId: 'carol', memoryId: created.body.memory.id });
    expect((audit.body.entries as Structured[])[0]?.actor).toBe(`delegated:agent:${keys.operator?.id}`);
    expect(first.stderr()).toContain('"event":"operator_delegation"');

    // A tenant outside MEMSVC_OPERATOR_TENANTS is refused, not quietly swapped for the operator's own.
    const outside = await call(operator, 'list_memories', { userId: 'alice' });
    expect(outside.body.error).toMatchObject({ code: 'FORBIDDEN', data: { field: 'userId' } });
    // Without the admin scope, naming an operator tenant is ignored like any userId.
    const bob = await connect(second, keys['bob-agent']?.key ?? '');
    const own = await call(bob, 'list_memories', { userId: 'carol' });
    expect((own.body.memories as Structured[]).every((memory) => memory.userId === 'bob')).toBe(true);
    // A session carries the admin scope of the key it came from.
    const adminSession = await session(second, keys['bob-admin']?.key ?? '');
    const delegated = await connect(second, adminSession.token);
    const carols = await call(delegated, 'list_memories', { userId: 'carol' });
    expect((carols.body.memories as Structured[]).map((memory) => memory.content)).toEqual(['Carol’s deploy window is Tuesday']);
  });
});
