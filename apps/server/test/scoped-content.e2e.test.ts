import { SCOPES, type Scope } from '@memsvc/access';
import { toTenantId } from '@memsvc/core';
import { type ApiKeyPrincipal, authInfoOf, createMcpServer, TOOL_NAMES, type ToolName } from '@memsvc/mcp-tools';
import { createLogger, type MemsvcRuntime, openRuntime } from '@memsvc/runtime';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpToolDependencies, readServerConfig, SERVER_NAME, SERVER_VERSION } from '../src/index.js';
import { serverEnv } from './support/server-process.js';
import { call, e2eEngines } from './support/tool-calls.js';

const ADMIN_TOKEN = 'an-admin-token-for-scope-tests-0123456789';
/** In every seeded memory's content, tags and metadata; found anywhere in a result, content leaked. */
const MARKER = 'quokka7f3a';
const SECRET = `The vault code is zebra ${MARKER} nine`;
/**
 * What a caller writes to hit the seeded memory: the same text in capitals, which collapses into
 * it (identical once normalised, R-DUP-EXACT) without the caller ever sending the marker as stored.
 */
const SECRET_AGAIN = SECRET.toUpperCase();
const QUERY = 'vault code zebra nine';

interface Seeded {
  readonly tenant: string;
  readonly longTermId: string;
  readonly shortTermId: string;
  readonly deletedId: string;
  readonly jobId: string;
  /** A live grant the tenant gave, and one it received (the sharing tools). */
  readonly givenGrantId: string;
  /** An erasure of the tenant's, for verify_erasure. */
  readonly erasureId: string;
  readonly receivedGrantId: string;
}

/** A user every case's tenant shares with, and who shares with each of them. */
const FRIEND = 'scopes-friend';

/** Valid arguments for every advertised tool, against one seeded tenant. */
function argumentsOf(tool: ToolName, seeded: Seeded): Record<string, unknown> {
  const admin = { adminToken: ADMIN_TOKEN, userId: seeded.tenant };
  const byTool: Record<ToolName, Record<string, unknown>> = {
    ping: {},
    create_memory: { content: SECRET_AGAIN, type: 'long-term' },
    get_memory: { memoryId: seeded.longTermId },
    list_memories: {},
    update_memory: { memoryId: seeded.longTermId, expectedVersion: 1, importance: 0.9 },
    delete_memory: { memoryId: seeded.longTermId },
    bulk_delete_memories: { memoryIds: [seeded.longTermId, seeded.shortTermId] },
    promote_memory: { memoryId: seeded.longTermId },
    restore_memory: { memoryId: seeded.deletedId },
    reembed_memory: { memoryId: seeded.longTermId },
    get_memory_audit: { memoryId: seeded.longTermId },
    recall: { query: QUERY },
    load_context: {},
    prompt_context: { query: QUERY },
    compress_context: { query: QUERY },
    remember: { content: SECRET_AGAIN },
    forget: { query: QUERY, minScore: 0 },
    reflect: { query: QUERY },
    ingest_conversation: { turns: [{ role: 'user', content: SECRET_AGAIN }] },
    export_memories: {},
    search: { query: QUERY },
    fetch: { id: seeded.longTermId },
    grant_access: { space: 'team', granteeKind: 'user', granteeId: FRIEND },
    revoke_access: { grantId: seeded.givenGrantId },
    list_grants: {},
    verify_erasure: { erasureId: seeded.erasureId },
    use_shared_space: { grantId: seeded.receivedGrantId, byDefault: true },
    import_agent_memory: {
      ...admin,
      source: 'markdown',
      files: [{ path: 'notes.md', content: '# Notes\n\nA harmless note' }],
      dryRun: true,
    },
    consolidate_memories: admin,
    consolidate_corpus: admin,
    reindex_memories: admin,
    queue_reindex_memories: admin,
    get_reindex_status: { adminToken: ADMIN_TOKEN, jobId: seeded.jobId },
    cancel_reindex_job: { adminToken: ADMIN_TOKEN, jobId: seeded.jobId },
    retry_reindex_job: { adminToken: ADMIN_TOKEN, jobId: seeded.jobId },
  };
  return byTool[tool];
}

async function connect(runtime: MemsvcRuntime, principal?: ApiKeyPrincipal): Promise<Client> {
  const server = createMcpServer({ name: SERVER_NAME, version: SERVER_VERSION }, mcpToolDependencies(runtime));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  if (principal) {
    // What the HTTP transport does for a verified key: the principal rides on every request.
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) => send(message, { ...options, authInfo: authInfoOf(principal) });
  }
  await server.connect(serverSide);
  const client = new Client({ name: 'scoped', version: '0.0.0' });
  await client.connect(clientSide);
  // Listed first, as clients do: the SDK client then checks every result against the tool's
  // outputSchema, so each case below also proves that what each scope sees matches it (R-TOOLS-OUTPUT).
  await client.listTools();
  return client;
}

const engines = e2eEngines('memsvc_scopes');

/**
 * Finding #3 of issue 37: a credential that may write or delete but not read must not read
 * through the tools it may call — no content, tags or metadata, and no ids of memories found by
 * similarity to its own text. Every advertised tool × every scope alone, each case on a tenant
 * of its own seeded with memories carrying a marker.
 */
describe.each(engines)('what each scope sees [$name]', (engine) => {
  let runtime: MemsvcRuntime;
  let owner: Client;
  const clients: Client[] = [];
  let caseNumber = 0;

  beforeAll(async () => {
    const { config } = readServerConfig(
      serverEnv({
        DATABASE_URL: await engine.database(),
        DEPLOYMENT_PROFILE: 'lite',
        EMBEDDING_PROVIDER: 'local',
        MCP_ADMIN_TOKEN: ADMIN_TOKEN,
        LOG_LEVEL: 'error',
      }),
      '/tmp',
    );
    runtime = await openRuntime(config, { applicationName: 'memsvc-scope-test', logger: createLogger('error', { write: () => {} }) });
    owner = await connect(runtime);
    clients.push(owner);
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await runtime?.close();
  });

  /** A tenant of its own, seeded by its owner (anonymous, every scope). */
  const seed = async (): Promise<Seeded> => {
    const tenant = `scopes-${++caseNumber}`;
    const write = async (args: Record<string, unknown>) => {
      const created = await call(owner, 'create_memory', { userId: tenant, tags: [`tag-${MARKER}`], metadata: { note: MARKER }, ...args });
      expect(created.isError, JSON.stringify(created.body)).toBe(false);
      return created.body.memory.id as string;
    };
    const longTermId = await write({ content: SECRET, type: 'long-term' });
    const shortTermId = await write({ content: `Currently ${MARKER} is being rotated`, type: 'short-term' });
    const deletedId = await write({ content: `The old ${MARKER} runbook lives in the wiki`, type: 'long-term' });
    await call(owner, 'delete_memory', { userId: tenant, memoryId: deletedId });
    const job = await call(owner, 'queue_reindex_memories', { adminToken: ADMIN_TOKEN, userId: tenant });
    await call(owner, 'create_memory', {
      userId: FRIEND,
      content: `The team ${MARKER} lives in the blue folder`,
      type: 'long-term',
      scope: 'team',
    });
    const share = async (from: string, to: string) =>
      (await call(owner, 'grant_access', { userId: from, space: 'team', granteeKind: 'user', granteeId: to })).body.grant.id as string;
    const givenGrantId = await share(tenant, FRIEND);
    const gone = await write({ content: `A ${MARKER} note to erase`, type: 'long-term' });
    const erasureId = (await call(owner, 'delete_memory', { userId: tenant, memoryId: gone, erase: true })).body.receipt
      .erasureId as string;
    const receivedGrantId = await share(FRIEND, tenant);
    return {
      tenant,
      longTermId,
      shortTermId,
      deletedId,
      jobId: job.body.jobId ?? '00000000-0000-7000-8000-000000000000',
      givenGrantId,
      erasureId,
      receivedGrantId,
    };
  };

  const principal = (tenant: string, scope: Scope): ApiKeyPrincipal => ({
    kind: 'api-key',
    id: `key-${tenant}`,
    tenant: toTenantId(tenant),
    organizationId: null,
    scopes: [scope],
  });

  it('R-SCOPE-CONTENT: without memories:read, no tool returns a memory’s content, tags, metadata or similarity-found ids', async () => {
    const leaks: string[] = [];
    const refusedWithRead: string[] = [];
    const failures: string[] = [];
    for (const scope of SCOPES) {
      for (const tool of TOOL_NAMES) {
        const seeded = await seed();
        const client = await connect(runtime, principal(seeded.tenant, scope));
        const result = await call(client, tool, argumentsOf(tool, seeded));
        const text = JSON.stringify(result.body);
        const forbidden = result.isError && result.body.error?.code === 'FORBIDDEN';
        if (scope !== 'memories:read' && !forbidden && text.includes(MARKER)) leaks.push(`${tool} with ${scope}: ${text.slice(0, 200)}`);
        // The ids of the seeded memories the caller did not name: found by similarity, they leak too.
        if (scope !== 'memories:read' && (tool === 'create_memory' || tool === 'remember') && text.includes(seeded.longTermId)) {
          leaks.push(`${tool} with ${scope} names the near memory ${seeded.longTermId}`);
        }
        if (scope === 'memories:read' && forbidden) refusedWithRead.push(tool);
        // Every case ran: refused for its scope, or done (a queued job cannot be retried yet).
        if (result.isError && !forbidden && tool !== 'retry_reindex_job') failures.push(`${tool} with ${scope}: ${text.slice(0, 200)}`);
        await client.close();
      }
    }
    expect(leaks).toEqual([]);
    expect(failures).toEqual([]);
    // A caller that may read is refused nothing a read needs.
    expect(refusedWithRead.sort()).toEqual(
      ['bulk_delete_memories', 'create_memory', 'delete_memory', 'forget', 'ingest_conversation', 'promote_memory', 'remember']
        .concat(['reembed_memory', 'restore_memory', 'update_memory', 'grant_access', 'revoke_access'])
        .sort(),
    );
  });

  it('R-SCOPE-READ-UNCHANGED: a caller holding memories:read sees the content, as before', async () => {
    const seeded = await seed();
    const reader = await connect(runtime, { ...principal(seeded.tenant, 'memories:read'), scopes: ['memories:read', 'memories:write'] });
    clients.push(reader);
    for (const tool of ['get_memory', 'recall'] as const) {
      const result = await call(reader, tool, argumentsOf(tool, seeded));
      expect(JSON.stringify(result.body), tool).toContain(MARKER);
    }
    // A write returns no content to anyone (docs/tools.md#what-a-write-returns); a reader is told
    // which memory its text duplicated, as a caller without memories:read never is.
    for (const tool of ['create_memory', 'remember'] as const) {
      const result = await call(reader, tool, argumentsOf(tool, seeded));
      expect(result.body, tool).toMatchObject({ outcome: 'duplicate', memory: { id: seeded.longTermId } });
    }
    const deleter = await connect(runtime, {
      ...principal(seeded.tenant, 'memories:read'),
      scopes: ['memories:read', 'memories:delete'],
    });
    clients.push(deleter);
    const preview = await call(deleter, 'forget', argumentsOf('forget', seeded));
    expect(preview.body.candidates.map((candidate: { content: string }) => candidate.content)).toContain(SECRET);
  });
});
