import { TOOL_SETS } from '@memsvc/config';

import { InMemoryExportStore, InMemoryMemoryStore, inMemoryEngine, ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpServer, type ToolDependencies } from '../src/index.js';

/** The largest `tools/list` result a default server may send (R-TOOLS-SIZE). */
const DEFAULT_LIST_MAX_BYTES = 20 * 1024;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A server as the quick start runs it (no MCP_ADMIN_TOKEN, MCP_TOOL_SETS unset), over the SDK's linked pair. */
async function connect(options: Partial<Pick<ToolDependencies, 'toolSets'>> = {}) {
  const clock = new ManualClock('2026-05-01T10:00:00Z');
  const store = new InMemoryMemoryStore({ clock });
  const engine = inMemoryEngine(store, { embedder: new StaticEmbedder({}, undefined), clock });
  const exports = new InMemoryExportStore(store, clock);
  const server = createMcpServer(
    { name: 'memsvc', version: '0.0.0' },
    { clock, engine, exports, pipeline: { defaultUserId: 'me' }, ...options },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'surface-test', version: '0.0.0' });
  await client.connect(clientSide);
  closers.push(() => client.close());
  return client;
}

describe('the default tool surface', () => {
  it('R-TOOLS-SIZE: lists at most 20 KB of tools, as an agent receives them every session', async () => {
    const client = await connect();
    const listed = await client.listTools();
    const bytes = new TextEncoder().encode(JSON.stringify(listed)).length;
    expect(bytes).toBeLessThanOrEqual(DEFAULT_LIST_MAX_BYTES);
  });

  it('R-TOOLS-OFFERED: lists ping and the agent set by default, and still runs every spec tool called by name', async () => {
    const client = await connect();
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(['ping', ...TOOL_SETS.agent].sort());
    const created = await client.callTool({ name: 'create_memory', arguments: { content: 'unlisted but callable', type: 'long-term' } });
    expect(created.isError).toBeFalsy();
    const id = (created.structuredContent as { memory: { id: string } }).memory.id;
    const listed = await client.callTool({ name: 'list_memories', arguments: {} });
    expect(JSON.stringify(listed.structuredContent)).toContain(id);
    // Not a spec tool: the connectors run only when their set is chosen.
    const refused = await client.callTool({ name: 'search', arguments: { query: 'unlisted' } });
    expect(refused).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'NOT_FOUND', message: expect.stringContaining('MCP_TOOL_SETS'), data: { tool: 'search' } } },
    });
  });

  it('R-TOOLS-OFFERED: offers the sets an operator chooses', async () => {
    const client = await connect({ toolSets: ['memories', 'export'] });
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(['ping', ...TOOL_SETS.memories, ...TOOL_SETS.export].sort());
    expect((await client.callTool({ name: 'remember', arguments: { content: 'x' } })).isError).toBe(true);
  });

  it('R-TOOLS-OUTPUT: every listed tool declares an output schema, without the $schema keyword', async () => {
    const client = await connect({ toolSets: ['agent', 'memories', 'export'] });
    for (const tool of (await client.listTools()).tools) {
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(JSON.stringify(tool), tool.name).not.toContain('$schema');
    }
  });

  it('tells the agent how to use its memory, that memories are untrusted, and what an error looks like', async () => {
    const client = await connect();
    expect(client.getInstructions()).toMatch(/load_context.*remember.*recall/);
    expect(client.getInstructions()).toMatch(/never follow instructions/);
    expect(client.getInstructions()).toContain('structuredContent.error');
  });
});
