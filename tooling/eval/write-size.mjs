// @ts-check
// What a write costs the agent that reads its result: the bytes of each whole MCP tool result of
// an agent's writes (text content and structured content both, as recall-size.mjs counts a
// recall), over the engine on core's in-memory store with the local embedder (vectors, so
// duplicates and contradictions are found as on a server). The session: facts remembered, one of
// them changed (a result that lists `related`), a create, its duplicate, an edit of content and
// one of tags, a short-term note. Deterministic: the same calls on any build.
//
//   node tooling/eval/write-size.mjs [--root <a built checkout>]
//
// --root measures another built checkout of the repository (e.g. main, for a before/after figure).

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { root: { type: 'string' } } });
const root = resolve(values.root ?? new URL('../..', import.meta.url).pathname);
/** @param {string} path */
const load = (path) => import(pathToFileURL(resolve(root, path)).href);

const { createMcpServer } = await load('packages/mcp-tools/dist/index.js');
const { InMemoryMemoryStore, inMemoryEngine, ManualClock } = await load('packages/core/dist/testing/index.js');
const { LocalEmbedder } = await load('packages/embeddings/dist/index.js');
const { Client } = await load('packages/mcp-tools/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js');
const { InMemoryTransport } = await load('packages/mcp-tools/node_modules/@modelcontextprotocol/sdk/dist/esm/inMemory.js');

const DAY = 86_400_000;
const clock = new ManualClock('2026-11-01T09:00:00Z');
const engine = inMemoryEngine(new InMemoryMemoryStore({ clock }), { embedder: new LocalEmbedder(), clock });
const server = createMcpServer(
  { name: 'write-size', version: '0.0.0' },
  { clock, engine, pipeline: { defaultUserId: 'ana' }, toolSets: ['agent', 'memories'] },
);
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: 'write-size', version: '0.0.0' });
await client.connect(clientSide);

/** @type {{ label: string, tool: string, bytes: number }[]} */
const measured = [];
/**
 * @param {string} label
 * @param {string} tool
 * @param {Record<string, unknown>} args
 */
async function write(label, tool, args) {
  const result = /** @type {{ isError?: boolean, structuredContent: Record<string, any> }} */ (
    await client.callTool({ name: tool, arguments: args })
  );
  if (result.isError) throw new Error(`${tool}: ${JSON.stringify(result.structuredContent)}`);
  measured.push({ label, tool, bytes: Buffer.byteLength(JSON.stringify(result), 'utf8') });
  clock.advance(60_000);
  return result.structuredContent;
}

await write('a fact', 'remember', { content: 'I live in Paris', tags: ['home'] });
for (const content of [
  'My favourite tea is sencha',
  'Our standup is at 9:30 every weekday',
  'The API runs on Node 22',
  'My car is a Golf',
]) {
  await write('a fact', 'remember', { content });
}
clock.advance(30 * DAY);
await write('a changed fact (related)', 'remember', { content: 'I moved to Berlin last month, so I live in Berlin now' });
const staging = await write('create_memory', 'create_memory', {
  content: 'The staging database listens on port 5433',
  type: 'long-term',
  tags: ['infra'],
  metadata: { source: 'chat' },
});
await write('its duplicate', 'create_memory', { content: 'the staging database listens on port 5433', type: 'long-term' });
const id = staging.memory.id;
await write('new content', 'update_memory', { memoryId: id, expectedVersion: 1, content: 'The staging database listens on port 6543' });
await write('tags only', 'update_memory', { memoryId: id, expectedVersion: 2, tags: ['infra', 'db'] });
await write('a short-term note', 'remember', { content: 'Currently rotating the TLS certificate' });
await client.close();

const total = measured.reduce((sum, entry) => sum + entry.bytes, 0);
console.log(`write results of ${root}`);
for (const entry of measured) console.log(`${entry.tool.padEnd(14)} ${entry.label.padEnd(26)} ${String(entry.bytes).padStart(6)}`);
console.log(
  `${measured.length} writes, ${total} bytes, ${Math.round(total / measured.length)} bytes per write result (~${Math.round(total / measured.length / 4)} tokens)`,
);
