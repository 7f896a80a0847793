import { TOOL_SETS } from '@memsvc/config';
import { ADMIN_TOOLS } from '@memsvc/mcp-tools';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ServerProcess, startHttpServer } from './support/server-process.js';
import { call, e2eEngines, type Structured } from './support/tool-calls.js';
import { TOOL_CONNECTIONS, type ToolConnection } from './support/tool-connections.js';

const ADMIN_TOKEN = 'an-admin-token-for-surface-tests-0123456789';
const engines = e2eEngines('memsvc_surface');
const cases = engines.flatMap((engine) => TOOL_CONNECTIONS.map((connection) => ({ ...connection, engine, name: engine.name })));

/** A call that asks for progress (the SDK client sends a progressToken), with what it reported. */
async function withProgress(client: Client, name: string, args: Record<string, unknown>) {
  const seen: Progress[] = [];
  const result = await client.callTool({ name, arguments: args }, CallToolResultSchema, { onprogress: (progress) => seen.push(progress) });
  return { result, seen };
}

describe.each(cases)('the quick-start surface over $transport [$name]', ({ engine, connect }) => {
  let connection: ToolConnection;
  beforeAll(async () => {
    // MCP_TOOL_SETS empty is unset: the default sets; no MCP_ADMIN_TOKEN.
    connection = await connect({ DATABASE_URL: await engine.database(), DEPLOYMENT_PROFILE: 'lite', MCP_TOOL_SETS: '' });
  });
  afterAll(async () => {
    await connection?.close();
  });

  it('R-TOOLS-SIZE, R-TOOLS-OFFERED: lists ping and the agent set within 20 KB, no admin tool', async () => {
    const listed = await connection.client.listTools();
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['ping', ...TOOL_SETS.agent].sort());
    expect(new TextEncoder().encode(JSON.stringify(listed)).length).toBeLessThanOrEqual(20 * 1024);
  });

  it('R-TOOLS-OFFERED: refuses an admin tool as before (FORBIDDEN, admin_auth_denied), and never logs the token', async () => {
    const refused = await call(connection.client, 'reindex_memories', { adminToken: 'a-guess-at-the-token' });
    expect(refused).toMatchObject({ isError: true, body: { error: { code: 'FORBIDDEN', data: { field: 'adminToken' } } } });
    expect(refused.body.error.message).toMatch(/MCP_ADMIN_TOKEN/);
    const adminLines = () =>
      connection
        .logText()
        .split('\n')
        .filter((line) => line.includes('"admin_auth_'))
        .map((line) => JSON.parse(line) as Structured);
    // A server process writes its log as it goes: wait for the line rather than race it.
    await vi.waitFor(() =>
      expect(adminLines().at(-1)).toMatchObject({ msg: 'admin_auth_denied', tool: 'reindex_memories', reason: 'admin-tools-disabled' }),
    );
    expect(connection.logText()).not.toContain('a-guess-at-the-token');
  });
});

describe.each(cases)('long tools report progress over $transport [$name]', ({ engine, connect }) => {
  let connection: ToolConnection;
  let client: Client;
  beforeAll(async () => {
    connection = await connect({
      DATABASE_URL: await engine.database(),
      DEPLOYMENT_PROFILE: 'lite',
      MCP_ADMIN_TOKEN: ADMIN_TOKEN,
      STM_CONSOLIDATION_ACCESS_THRESHOLD: '1',
    });
    client = connection.client;
    // Listed first: the SDK client then checks every result below against its output schema.
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    for (const tool of ADMIN_TOOLS) expect(names).toContain(tool);
    for (const content of ['The staging database listens on port 5433', 'Deploys happen on Tuesdays', 'The VPN needs MFA']) {
      await call(client, 'remember', { content, type: 'long-term' });
    }
    // A short-term memory read once qualifies for promotion (threshold 1): consolidate_memories has work.
    const note = await call(client, 'remember', { content: 'Currently migrating the wiki', type: 'short-term' });
    await call(client, 'get_memory', { memoryId: note.body.memoryId });
  });
  afterAll(async () => {
    await connection?.close();
  });

  const admin = { adminToken: ADMIN_TOKEN };
  const runs: [string, Record<string, unknown>][] = [
    ['reindex_memories', { ...admin, reuseExistingEmbeddings: false, batchSize: 1 }],
    ['consolidate_memories', admin],
    ['consolidate_corpus', { ...admin, dryRun: false, userId: 'me' }],
    [
      'import_agent_memory',
      {
        ...admin,
        source: 'markdown',
        userId: 'me',
        files: [
          { path: 'a.md', content: '# A\n\nThe printer is on floor two' },
          { path: 'b.md', content: '# B\n\nLunch is at noon' },
        ],
      },
    ],
    ['export_memories', {}],
  ];

  it.each(runs)('R-TOOLS-PROGRESS: %s sends growing progress before its result', async (tool, args) => {
    const { result, seen } = await withProgress(client, tool, args);
    expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
    expect(seen.length).toBeGreaterThanOrEqual(2);
    const values = seen.map((progress) => progress.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
  });

  it('R-TOOLS-PROGRESS: reindex_memories reports each batch, up to the memories it processed', async () => {
    const { result, seen } = await withProgress(client, 'reindex_memories', { ...admin, reuseExistingEmbeddings: false, batchSize: 1 });
    const processed = (result.structuredContent as { processed: number }).processed;
    expect(processed).toBeGreaterThanOrEqual(3);
    expect(seen.map((progress) => progress.progress)).toEqual(Array.from({ length: processed + 1 }, (_, batch) => batch));
  });
});

describe('progress over HTTP: an SSE response only for a request that asks for it', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startHttpServer({ DATABASE_URL: 'pglite://memory', DEPLOYMENT_PROFILE: 'lite' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const post = (meta: Record<string, unknown> | undefined) =>
    fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'export_memories', arguments: {}, ...(meta ? { _meta: meta } : {}) },
      }),
    });

  it('R-TOOLS-PROGRESS: answers with JSON without a progressToken, and with an event stream of progress then the result with one', async () => {
    const plain = await post(undefined);
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await plain.json()) as { id: number }).id).toBe(7);

    const streamed = await post({ progressToken: 'p-1' });
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await streamed.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice('data: '.length)) as { method?: string; id?: number; params?: { progressToken?: string } });
    const progress = events.filter((event) => event.method === 'notifications/progress');
    expect(progress.length).toBeGreaterThanOrEqual(1);
    for (const event of progress) expect(event.params?.progressToken).toBe('p-1');
    expect(events.at(-1)?.id).toBe(7);
  });
});
