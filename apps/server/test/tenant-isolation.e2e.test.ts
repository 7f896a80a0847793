import type { Scope } from '@memsvc/access';
import { TOOL_NAMES } from '@memsvc/mcp-tools';
import { type MemsvcStore, openStore } from '@memsvc/store-pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../tooling/vitest/test-databases.ts';
import { BearerClients, pingStatus, storeApiKey } from './support/bearer-clients.js';
import { type ServerProcess, startHttpServer } from './support/server-process.js';
import { call, type Structured } from './support/tool-calls.js';

const pgUrl = inject('pgvectorTestUrl');
const JWT_SECRET = 's'.repeat(40);

/**
 * Spec §5.2 end to end: two replicas of the standard profile with AUTH_REQUIRED=true on one
 * PostgreSQL, per-agent API keys of two tenants. The tenant is the key's; a userId in the input
 * is ignored; scopes are enforced; a revoked key is refused on both replicas at the next call.
 */
describe.skipIf(!pgUrl)('tenant isolation with per-agent API keys (two replicas on PostgreSQL)', () => {
  let database: TestDatabase;
  let store: MemsvcStore;
  let replicas: ServerProcess[] = [];
  const keys: Record<string, { id: string; key: string }> = {};
  const clients = new BearerClients();

  const connect = (replica: ServerProcess, key: string) => clients.connect(replica.url, key);
  const issue = async (name: string, user: string, scopes: Scope[]) => {
    keys[name] = await storeApiKey(store, { user, name, scopes });
  };
  const status = (replica: ServerProcess, key: string) => pingStatus(replica.url, key);

  beforeAll(async () => {
    database = await createTestDatabase(pgUrl ?? '', 'memsvc_isolation');
    store = await openStore({ database: database.url, pool: { maxConnections: 2 } });
    const all: Scope[] = ['memories:read', 'memories:write', 'memories:delete'];
    await issue('alice-agent', 'alice', all);
    await issue('bob-agent', 'bob', all);
    await issue('alice-reader', 'alice', ['memories:read']);
    const env = {
      DATABASE_URL: database.url,
      DEPLOYMENT_PROFILE: 'standard',
      AUTH_REQUIRED: 'true',
      JWT_SECRET,
      EMBEDDING_PROVIDER: 'local',
      // Admin tools are listed only where they can work.
      MCP_ADMIN_TOKEN: 'an-admin-token-for-isolation-tests-0123',
    };
    replicas = await Promise.all([startHttpServer(env), startHttpServer(env)]);
  });
  afterAll(async () => {
    await clients.closeAll();
    for (const replica of replicas) await replica.stop();
    await store?.close();
    await database?.drop();
  });

  it('lists the same 35 tools as the lite profile (spec §1.6: the tool surface is identical in both; MCP_TOOL_SETS=all)', async () => {
    const alice = await connect(replicas[0] as ServerProcess, keys['alice-agent']?.key ?? '');
    const names = (await alice.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toHaveLength(35);
    expect(names).toEqual([...TOOL_NAMES].sort());
  });

  it("keeps every tool of one tenant's key away from the other tenant's memories, even when the input names them", async () => {
    const [first, second] = replicas as [ServerProcess, ServerProcess];
    const alice = await connect(first, keys['alice-agent']?.key ?? '');
    const bob = await connect(second, keys['bob-agent']?.key ?? '');

    // Alice names bob as the tenant: ignored, the memory is hers.
    const created = await call(alice, 'create_memory', {
      userId: 'bob',
      content: 'Alice keeps the launch codes in the blue folder',
      type: 'long-term',
    });
    expect(created.isError).toBe(false);
    const secretId: string = created.body.memory.id;
    // A write returns the id; whose memory it is, get_memory says.
    expect((await call(alice, 'get_memory', { memoryId: created.body.memory.id })).body.memory.userId).toBe('alice');
    await call(alice, 'ingest_conversation', { userId: 'bob', turns: [{ role: 'alice', content: 'The blue folder is in the safe' }] });
    expect((await call(alice, 'get_memory', { memoryId: secretId })).body.memory.content).toContain('launch codes');

    const asBob = { userId: 'alice' };
    const reads: [string, Record<string, unknown>][] = [
      ['get_memory', { ...asBob, memoryId: secretId }],
      ['get_memory_audit', { ...asBob, memoryId: secretId }],
      ['list_memories', { ...asBob }],
      ['recall', { ...asBob, query: 'launch codes blue folder' }],
      ['load_context', { ...asBob }],
      ['prompt_context', { ...asBob, query: 'launch codes' }],
      ['compress_context', { ...asBob, query: 'launch codes' }],
      ['reflect', { ...asBob, query: 'launch codes' }],
      ['update_memory', { ...asBob, memoryId: secretId, content: 'Bob was here' }],
      ['promote_memory', { ...asBob, memoryId: secretId }],
      ['restore_memory', { ...asBob, memoryId: secretId }],
      ['reembed_memory', { ...asBob, memoryId: secretId }],
      ['delete_memory', { ...asBob, memoryId: secretId }],
      ['bulk_delete_memories', { ...asBob, memoryIds: [secretId] }],
      ['forget', { ...asBob, memoryId: secretId, confirm: true }],
      ['forget', { ...asBob, query: 'launch codes blue folder', confirm: true }],
      ['remember', { ...asBob, content: 'Bob writes into his own tenant only' }],
    ];
    for (const [tool, args] of reads) {
      const result = await call(bob, tool, args);
      const text = JSON.stringify(result.body);
      // The query may be echoed back; what Alice stored must not be.
      expect(text, `${tool} over bob's key`).not.toContain('Alice keeps');
      expect(text, `${tool} over bob's key`).not.toContain('is in the safe');
    }
    // Alice's memory is untouched: same content, same version, still there, and Bob's own write is his.
    const after = await call(alice, 'get_memory', { memoryId: secretId });
    expect(after.body.memory).toMatchObject({ content: 'Alice keeps the launch codes in the blue folder', version: 1, userId: 'alice' });
    const audit = await call(alice, 'get_memory_audit', { memoryId: secretId });
    expect((audit.body.entries as Structured[]).map((entry) => entry.actor)).toEqual([`agent:${keys['alice-agent']?.id}`]);
    const bobs = await call(bob, 'list_memories', {});
    expect((bobs.body.memories as Structured[]).map((memory) => memory.content)).toEqual(['Bob writes into his own tenant only']);
  });

  it('a read-only key reads its tenant and cannot write or delete', async () => {
    const reader = await connect(replicas[1] as ServerProcess, keys['alice-reader']?.key ?? '');
    expect((await call(reader, 'recall', { query: 'launch codes' })).body.results.length).toBeGreaterThan(0);
    for (const [tool, args] of [
      ['create_memory', { content: 'not allowed', type: 'long-term' }],
      ['delete_memory', { memoryId: '00000000-0000-7000-8000-000000000000' }],
    ] as const) {
      const refused = await call(reader, tool, args);
      expect(refused.isError).toBe(true);
      expect(refused.body.error.code).toBe('FORBIDDEN');
    }
  });

  it('refuses bad credentials with 401, and a revoked key on both replicas at the next call', async () => {
    const [first, second] = replicas as [ServerProcess, ServerProcess];
    const key = keys['bob-agent']?.key ?? '';
    expect(await status(first, key)).toBe(200);
    expect(await status(second, key)).toBe(200);
    const wrongBody = `${key.slice(0, -4)}AAAA`;
    for (const bad of [wrongBody, 'msk_short', '', 'Basic abc']) expect(await status(first, bad)).toBe(401);
    // A 64 KB header is refused by Node's HTTP parser before any of memsvc's code runs.
    expect(await status(first, 'x'.repeat(65_536))).toBe(431);
    await store.apiKeys.revoke(keys['bob-agent']?.id ?? '', new Date());
    expect(await status(first, key)).toBe(401);
    expect(await status(second, key)).toBe(401);
    for (const replica of replicas) expect(replica.stderr()).not.toContain(key.slice(4));
  });
});
