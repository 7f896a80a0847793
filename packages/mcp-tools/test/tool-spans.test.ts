import { TOOL_SET_NAMES } from '@memsvc/config';

import { InMemoryMemoryStore, inMemoryEngine, ManualClock, RecordingTracer, StaticEmbedder } from '@memsvc/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { createMcpServer, runTool, toolError } from '../src/index.js';

/** The tools over the in-memory engine with a recording tracer in both the pipeline and the engine. */
async function tracedClient() {
  const clock = new ManualClock('2026-05-01T10:00:00Z');
  const tracer = new RecordingTracer();
  const store = new InMemoryMemoryStore({ clock });
  const engine = inMemoryEngine(store, { embedder: new StaticEmbedder({}, undefined), clock, tracer });
  const pipeline = { defaultUserId: 'alice@example.com', tracer };
  const server = createMcpServer({ name: 'memsvc-test', version: '0.0.0' }, { clock, engine, pipeline, toolSets: TOOL_SET_NAMES });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test-client', version: '0.0.0' });
  await client.connect(clientSide);
  return { client, tracer };
}

describe('tool calls in spans', () => {
  it('a tool call is an `mcp.tool <name>` span with its kind, status and tier, the engine span inside', async () => {
    const { client, tracer } = await tracedClient();
    await client.callTool({ name: 'create_memory', arguments: { content: 'The boat is moored at pier 7', type: 'long-term' } });
    const call = tracer.only('mcp.tool create_memory');
    expect(call.attributes).toEqual({
      'mcp.tool.name': 'create_memory',
      'memsvc.tool.kind': 'memory',
      'memsvc.tool.status': 'success',
      'memsvc.memory.tier': 'ltm',
    });
    expect(call.errorCode).toBeUndefined();
    expect(tracer.childrenOf(call).map((span) => span.name)).toEqual(['memory.create']);
    await client.close();
  });

  it('a failed call records its error code, never its message, arguments or caller', async () => {
    const { client, tracer } = await tracedClient();
    await client.callTool({ name: 'recall', arguments: { query: '   ' } });
    await client.callTool({ name: 'get_memory', arguments: { memoryId: 'no-such-memory' } });
    expect(
      tracer.spans
        .filter((span) => span.name.startsWith('mcp.tool'))
        .map((span) => [span.name, span.errorCode, span.attributes['memsvc.tool.status']]),
    ).toEqual([
      ['mcp.tool recall', 'INVALID_INPUT', 'error'],
      ['mcp.tool get_memory', 'NOT_FOUND', 'error'],
    ]);
    const everything = JSON.stringify(tracer.spans);
    for (const secret of ['no-such-memory', 'alice@example.com', 'must not be empty']) expect(everything).not.toContain(secret);
    await client.close();
  });

  it('an error result the body returns itself is recorded with its code too', async () => {
    const tracer = new RecordingTracer();
    await runTool({ tracer }, {}, { kind: 'open', tool: 'ping' }, async () => ({
      result: toolError(new Error('a bug with details that stay in the log')),
    }));
    expect(tracer.spans.map((span) => [span.name, span.errorCode])).toEqual([['mcp.tool ping', 'INTERNAL']]);
  });
});
