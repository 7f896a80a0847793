import { createMemoryEngine, Secret } from '@memsvc/core';
import { InMemoryExportStore, InMemoryMemoryStore, ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { it } from 'vitest';
import { createMcpServer } from '../src/index.js';

it('measure', async () => {
  const clock = new ManualClock('2026-05-01T10:00:00Z');
  const store = new InMemoryMemoryStore({ clock });
  const engine = createMemoryEngine({ store, embedder: new StaticEmbedder({}, undefined), clock });
  const server = createMcpServer(
    { name: 'memsvc', version: '0.0.0' },
    { clock, engine, maintenance: {} as never, exports: {} as never, imports: {} as never, pipeline: { adminToken: new Secret('x') } },
  );
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: 't', version: '0' });
  await client.connect(a);
  const tools = (await client.listTools()).tools;
  console.log('TOTAL', JSON.stringify({ tools }).length);
  for (const t of tools)
    console.log(
      t.name,
      JSON.stringify(t).length,
      JSON.stringify(t.inputSchema).length,
      JSON.stringify(t.outputSchema ?? {}).length,
      (t.description ?? '').length,
    );
  for (const n of ['remember', 'load_context']) console.log(JSON.stringify(tools.find((t) => t.name === n)));
});
