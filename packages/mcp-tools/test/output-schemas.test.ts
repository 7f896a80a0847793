import { TOOL_SET_NAMES } from '@memsvc/config';
import { createMemoryEngine, toTenantId } from '@memsvc/core';
import {
  InMemoryErasureStore,
  InMemoryExportStore,
  InMemoryGrantStore,
  InMemoryMemoryStore,
  ManualClock,
  StaticEmbedder,
} from '@memsvc/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { type ApiKeyPrincipal, authInfoOf, createMcpServer, type ToolName } from '../src/index.js';

/**
 * The SDK client checks every result's structuredContent against the tool's outputSchema once it
 * has listed the tools, and throws when it does not match: each call below is that check.
 */
async function connect(principal?: ApiKeyPrincipal) {
  const clock = new ManualClock('2026-05-01T10:00:00Z');
  const store = new InMemoryMemoryStore({ clock });
  // Every text gets its letter counts as a vector: distinct texts stay apart, and reembed_memory succeeds.
  const letters = (text: string) => Array.from({ length: 26 }, (_, i) => text.toLowerCase().split(String.fromCharCode(97 + i)).length - 1);
  const embedder = new StaticEmbedder({}, 'static-test', letters);
  const grants = new InMemoryGrantStore({ users: ['alice', 'bob'] });
  // bob shares a space with alice, so use_shared_space has a grant to choose.
  await grants.grant(toTenantId('bob'), { space: 'team', grantee: { kind: 'user', id: 'alice' }, access: 'read' }, 'user:bob', clock.now());
  const engine = createMemoryEngine({ store, embedder, clock, grants, erasures: new InMemoryErasureStore(store, clock) });
  const exports = new InMemoryExportStore(store, clock);
  const server = createMcpServer(
    { name: 'memsvc', version: '0.0.0' },
    { clock, engine, exports, pipeline: { defaultUserId: 'alice' }, toolSets: TOOL_SET_NAMES },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  if (principal) {
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) => send(message, { ...options, authInfo: authInfoOf(principal) });
  }
  await server.connect(serverSide);
  const client = new Client({ name: 'schema-test', version: '0.0.0' });
  await client.connect(clientSide);
  return { client, listed: (await client.listTools()).tools.map((tool) => tool.name as ToolName) };
}

type Seeded = { longTermId: string; shortTermId: string; deletedId: string };

function argumentsOf(tool: ToolName, seeded: Seeded): Record<string, unknown> {
  const byTool: Partial<Record<ToolName, Record<string, unknown>>> = {
    ping: {},
    create_memory: { content: 'The build server runs Debian 12', type: 'long-term' },
    get_memory: { memoryId: seeded.longTermId, asOf: '2026-05-01T10:00:00Z' },
    list_memories: { asOf: '2026-05-01T10:00:00Z' },
    update_memory: { memoryId: seeded.longTermId, expectedVersion: 1, importance: 0.9 },
    delete_memory: { memoryId: seeded.deletedId },
    bulk_delete_memories: { memoryIds: [seeded.deletedId, 'no-such-memory'] },
    promote_memory: { memoryId: seeded.shortTermId },
    restore_memory: { memoryId: seeded.deletedId },
    reembed_memory: { memoryId: seeded.longTermId },
    get_memory_audit: { memoryId: seeded.longTermId },
    recall: { query: 'staging database port' },
    load_context: {},
    prompt_context: { query: 'staging database port' },
    compress_context: { query: 'staging database port' },
    remember: { content: 'I moved to Berlin' },
    forget: { query: 'staging database', minScore: 0 },
    reflect: { query: 'staging database' },
    ingest_conversation: { turns: [{ role: 'user', content: 'Where is the staging database?' }] },
    export_memories: { format: 'jsonl' },
    search: { query: 'staging database port' },
    fetch: { id: seeded.longTermId },
    grant_access: { space: 'project:x', granteeKind: 'user', granteeId: 'bob', access: 'read' },
    revoke_access: { grantId: 'grant-2' },
    list_grants: {},
    verify_erasure: { erasureId: '01900000-0000-7000-8000-000000000000' },
    use_shared_space: { grantId: 'grant-1', byDefault: true },
  };
  const args = byTool[tool];
  if (!args) throw new Error(`no arguments for ${tool}`);
  return args;
}

async function seed(client: Client): Promise<Seeded> {
  const write = async (content: string, type: string) => {
    const result = await client.callTool({ name: 'create_memory', arguments: { content, type } });
    return (result.structuredContent as { memory: { id: string } }).memory.id;
  };
  const longTermId = await write('The staging database listens on port 5433', 'long-term');
  const shortTermId = await write('Currently rotating the TLS certificate', 'short-term');
  const deletedId = await write('The old runbook lives in the wiki', 'long-term');
  await client.callTool({ name: 'delete_memory', arguments: { memoryId: deletedId } });
  return { longTermId, shortTermId, deletedId };
}

describe('output schemas', () => {
  it('R-TOOLS-OUTPUT: every tool result validates against its outputSchema: success, error, and what a write-only key sees', async () => {
    const { client, listed } = await connect();
    const seeded = await seed(client);
    for (const tool of listed) {
      const result = await client.callTool({ name: tool, arguments: argumentsOf(tool, seeded) });
      // The seeded arguments name no erasure of the caller: the typed error, validated all the same;
      // the receipt's check itself is validated over the real server (erasure.e2e).
      if (tool === 'verify_erasure') {
        expect(result.structuredContent).toMatchObject({ error: { code: 'NOT_FOUND' } });
        continue;
      }
      expect(result.isError, `${tool}: ${JSON.stringify(result.structuredContent)}`).toBeFalsy();
      if (tool === 'ping') continue;
      // An argument it does not take: the typed error result, validated against the same schema.
      const failed = await client.callTool({ name: tool, arguments: { ...argumentsOf(tool, seeded), surprise: 1 } });
      expect(failed.structuredContent, tool).toMatchObject({ error: { code: 'INVALID_INPUT' } });
    }
    expect(listed).toHaveLength(27);

    const writer: ApiKeyPrincipal = {
      kind: 'api-key',
      id: 'w',
      tenant: toTenantId('alice'),
      organizationId: null,
      scopes: ['memories:write', 'memories:delete'],
    };
    const restricted = await connect(writer);
    const own = await seed(restricted.client);
    for (const tool of restricted.listed) {
      const result = await restricted.client.callTool({ name: tool, arguments: argumentsOf(tool, own) });
      expect(result.structuredContent, tool).toBeDefined();
    }
  });
});
