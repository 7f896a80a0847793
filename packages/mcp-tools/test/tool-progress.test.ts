import { TOOL_SET_NAMES } from '@memsvc/config';

import { InMemoryExportStore, InMemoryMemoryStore, inMemoryEngine, ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, type Progress, ProgressNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createMcpServer } from '../src/index.js';

async function connect() {
  const clock = new ManualClock('2026-05-01T10:00:00Z');
  const store = new InMemoryMemoryStore({ clock });
  const engine = inMemoryEngine(store, { embedder: new StaticEmbedder({}, undefined), clock });
  const exports = new InMemoryExportStore(store, clock);
  const server = createMcpServer(
    { name: 'memsvc', version: '0.0.0' },
    { clock, engine, exports, pipeline: { defaultUserId: 'alice' }, toolSets: TOOL_SET_NAMES },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'progress-test', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('progress notifications', () => {
  it('R-TOOLS-PROGRESS: export_memories reports its page when the call carries a progressToken, and nothing otherwise', async () => {
    const client = await connect();
    for (const content of ['The sky is blue', 'Tea is best with lemon', 'Port 5433 is staging']) {
      await client.callTool({ name: 'remember', arguments: { content, type: 'long-term' } });
    }
    const seen: Progress[] = [];
    // The SDK client sends a progressToken when it is given onprogress.
    const result = await client.callTool({ name: 'export_memories', arguments: {} }, CallToolResultSchema, {
      onprogress: (progress) => seen.push(progress),
    });
    expect(result.isError).toBeFalsy();
    expect(seen).toEqual([
      { progress: 0, message: 'memories exported' },
      { progress: 3, message: 'memories exported' },
    ]);

    // Any progress notification from here on is recorded: a call without a token must cause none.
    const quiet: unknown[] = [];
    client.setNotificationHandler(ProgressNotificationSchema, (notification) => void quiet.push(notification));
    const unasked = await client.callTool({ name: 'export_memories', arguments: {} });
    expect(unasked.isError).toBeFalsy();
    expect(quiet).toEqual([]);
  });
});
