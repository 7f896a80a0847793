import type { Scope } from '@memsvc/access';
import { type MemsvcStore, openStore } from '@memsvc/store-pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { verifies } from '../../../packages/core/test/requirements.js';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../tooling/vitest/test-databases.ts';
import { BearerClients, storeApiKey } from './support/bearer-clients.js';
import { type ServerProcess, startHttpServer } from './support/server-process.js';
import { call, errorCode } from './support/tool-calls.js';

const pgUrl = inject('pgvectorTestUrl');
const PAYMENTS = 'project:payments';

/**
 * Sharing by grant end to end (issue 43): two replicas of the standard profile with per-agent
 * keys of three tenants. A grant made on one replica applies on the other at the next call, and so
 * does its revocation; the grantee reads only the granted space, writes only with read-write.
 */
describe.skipIf(!pgUrl)('spaces shared by grant (two replicas on PostgreSQL)', () => {
  let database: TestDatabase;
  let store: MemsvcStore;
  let replicas: [ServerProcess, ServerProcess];
  const clients = new BearerClients();
  const keys: Record<string, { id: string; key: string }> = {};

  beforeAll(async () => {
    database = await createTestDatabase(pgUrl ?? '', 'memsvc_shared_spaces');
    store = await openStore({ database: database.url, pool: { maxConnections: 2 } });
    const all: Scope[] = ['memories:read', 'memories:write', 'memories:delete'];
    keys.alice = await storeApiKey(store, { user: 'alice', name: 'alice', scopes: [...all, 'keys:manage'] });
    keys.aliceWriter = await storeApiKey(store, { user: 'alice', name: 'alice writer', scopes: all });
    keys.bob = await storeApiKey(store, { user: 'bob', name: 'bob', scopes: [...all, 'keys:manage'] });
    keys.carol = await storeApiKey(store, { user: 'carol', name: 'carol', scopes: all });
    const env = {
      DATABASE_URL: database.url,
      DEPLOYMENT_PROFILE: 'standard',
      AUTH_REQUIRED: 'true',
      JWT_SECRET: 's'.repeat(40),
      EMBEDDING_PROVIDER: 'local',
    };
    replicas = (await Promise.all([startHttpServer(env), startHttpServer(env)])) as [ServerProcess, ServerProcess];
  });
  afterAll(async () => {
    await clients.closeAll();
    for (const replica of replicas ?? []) await replica.stop();
    await store?.close();
    await database?.drop();
  });

  it('shares one space across replicas: read, labelled, write with read-write, revoked at the next call', async () => {
    const [first, second] = replicas;
    const alice = await clients.connect(first.url, keys.alice?.key ?? '');
    const bob = await clients.connect(second.url, keys.bob?.key ?? '');
    const carol = await clients.connect(second.url, keys.carol?.key ?? '');
    const write = async (content: string, scope: string) =>
      (await call(alice, 'create_memory', { content, type: 'long-term', scope })).body.memory.id as string;
    const shared = await write('The payments service retries refunds three times', PAYMENTS);
    const secret = await write('Refunds of my own dentist bill are due in June', 'personal');

    // A key without keys:manage shares nothing; nobody shares another's space.
    const writer = await clients.connect(first.url, keys.aliceWriter?.key ?? '');
    expect(await errorCode(writer, 'grant_access', { space: PAYMENTS, granteeKind: 'user', granteeId: 'bob' })).toBe('FORBIDDEN');
    expect(await errorCode(bob, 'grant_access', { space: PAYMENTS, granteeKind: 'user', granteeId: 'carol', owner: 'alice' })).toBe(
      'FORBIDDEN',
    );
    expect(await errorCode(alice, 'grant_access', { space: PAYMENTS, granteeKind: 'user', granteeId: 'alice' })).toBe('INVALID_INPUT');

    const granted = await call(alice, 'grant_access', { space: PAYMENTS, granteeKind: 'user', granteeId: 'bob', access: 'read' });
    expect(granted.body.grant).toMatchObject({ owner: 'alice', space: PAYMENTS, access: 'read', grantee: { kind: 'user', id: 'bob' } });
    const grantId: string = granted.body.grant.id;

    const recalled = await call(bob, 'recall', { query: 'refunds', shared: 'all' });
    const hit = recalled.body.results.find((result: { id: string }) => result.id === shared);
    expect(hit?.shared).toEqual({ owner: 'alice', space: PAYMENTS });
    expect(recalled.body.results.map((result: { id: string }) => result.id)).not.toContain(secret);
    expect((await call(bob, 'get_memory', { memoryId: shared })).body.shared).toEqual({ owner: 'alice', space: PAYMENTS });
    expect(await errorCode(bob, 'get_memory', { memoryId: secret })).toBe('NOT_FOUND');
    expect((await call(bob, 'list_memories', { shared: { owner: 'alice', space: PAYMENTS } })).body.memories).toHaveLength(1);
    expect(await errorCode(carol, 'get_memory', { memoryId: shared })).toBe('NOT_FOUND');
    expect((await call(carol, 'recall', { query: 'refunds payments', shared: 'all' })).body.results).toEqual([]);

    // Chosen as a default, plain reads include it; the context block labels it.
    await call(bob, 'use_shared_space', { grantId, byDefault: true });
    const block = await call(bob, 'prompt_context', { query: 'payments refunds retries' });
    expect(block.body.context).toContain(`shared by alice, space ${PAYMENTS}`);
    const listed = await call(bob, 'list_grants', {});
    expect(listed.body.received).toEqual([expect.objectContaining({ id: grantId, byDefault: true })]);
    expect((await call(alice, 'list_grants', {})).body.given).toEqual([expect.objectContaining({ id: grantId, revokedAt: null })]);

    // Writing needs read-write.
    const note = { content: 'Refund retries back off exponentially since May', type: 'long-term', scope: PAYMENTS, owner: 'alice' };
    expect(await errorCode(bob, 'create_memory', note)).toBe('FORBIDDEN');
    await call(alice, 'grant_access', { space: PAYMENTS, granteeKind: 'user', granteeId: 'bob', access: 'read-write' });
    const written = await call(bob, 'create_memory', note);
    const stored = await call(alice, 'get_memory', { memoryId: written.body.memory.id });
    expect(stored.body.memory).toMatchObject({ userId: 'alice', scope: PAYMENTS });
    const audit = await call(alice, 'get_memory_audit', { memoryId: written.body.memory.id });
    expect(audit.body.entries[0].actor).toBe(`grantee:bob:agent:${keys.bob?.id}`);

    // Revoked on one replica, gone on the other at the next call.
    await call(alice, 'revoke_access', { grantId });
    expect((await call(bob, 'recall', { query: 'refunds', shared: 'all' })).body.results).toEqual([]);
    expect(await errorCode(bob, 'get_memory', { memoryId: shared })).toBe('NOT_FOUND');
    expect(await errorCode(bob, 'create_memory', note)).toBe('FORBIDDEN');
  });

  it(
    verifies('R-GRANT-NO-ENUMERATION', 'grant_access answers the same over MCP for a user or API key id that exists and one that does not'),
    async () => {
      const alice = await clients.connect(replicas[0].url, keys.alice?.key ?? '');
      const space = 'project:enumeration';
      // What a caller can tell from the answer, less the ids it named and the row's own id and time.
      const answer = async (granteeKind: string, granteeId: string) => {
        const { isError, body } = await call(alice, 'grant_access', { space, granteeKind, granteeId, access: 'read' });
        const { id: _id, createdAt: _createdAt, grantee, ...rest } = body.grant ?? {};
        return { isError, error: body.error, keys: Object.keys(body).sort(), grant: { ...rest, granteeKind: grantee?.kind } };
      };
      const known = await answer('user', 'carol');
      expect(known).toMatchObject({ isError: false, grant: { owner: 'alice', space } });
      expect(await answer('user', 'nobody-has-this-id')).toEqual(known);
      // Another tenant's key, and a key id that was never minted.
      const key = await answer('api-key', keys.carol?.id ?? '');
      expect(key).toMatchObject({ isError: false });
      expect(await answer('api-key', '01900000-0000-7000-8000-0000000000fe')).toEqual(key);
    },
  );
});
