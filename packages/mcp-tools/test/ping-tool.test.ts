import { MemsvcError } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { createMcpServer, toolError } from '../src/index.js';

async function connectedClient() {
  const server = createMcpServer(
    { name: 'memsvc-test', version: '0.0.0' },
    { clock: new ManualClock('2026-05-01T10:00:00Z'), pipeline: {} },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test-client', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('ping over MCP', () => {
  it('answers with pong and the server time, as structured content and as text', async () => {
    const client = await connectedClient();
    const result = await client.callTool({ name: 'ping', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ status: 'pong', timestamp: '2026-05-01T10:00:00.000Z' });
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '')).toEqual(result.structuredContent);
  });

  it('rejects unknown arguments and unknown tools without crashing', async () => {
    const client = await connectedClient();
    // Listing first, as clients do: the SDK client then checks results against any output schema.
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('ping');
    const extra = await client.callTool({ name: 'ping', arguments: { surprise: 1 } });
    expect(extra.structuredContent).toEqual({
      error: { code: 'INVALID_INPUT', message: 'surprise: this tool takes no such argument', data: { field: 'surprise' } },
    });
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect((await client.callTool({ name: 'ping', arguments: {} })).isError).toBeFalsy();
  });
});

describe('toolError', () => {
  it('passes a MemsvcError through with its code and hides anything else', () => {
    const known = toolError(new MemsvcError('NOT_FOUND', 'memory m1 not found', { memoryId: 'm1' }));
    expect(known).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'NOT_FOUND', message: 'memory m1 not found', data: { memoryId: 'm1' } } },
    });
    const seen: unknown[] = [];
    const hidden = toolError(new Error('connection string postgres://u:secret@h/db refused'), (error) => seen.push(error));
    expect(hidden.structuredContent).toEqual({
      error: { code: 'INTERNAL', message: 'an internal error occurred; the server log has the details' },
    });
    expect(JSON.stringify(hidden)).not.toContain('secret');
    expect(seen).toHaveLength(1);
  });
});
