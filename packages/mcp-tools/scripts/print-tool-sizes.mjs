// Prints what each tool costs in `tools/list` (bytes of its JSON), by set, and the size of the
// default listing: `pnpm --filter @memsvc/mcp-tools sizes` after a build. docs/tools.md keeps the table.

import { Secret } from '@memsvc/access';
import { DEFAULT_TOOL_SETS, TOOL_SET_NAMES, TOOL_SETS } from '@memsvc/config';
import { InMemoryExportStore, InMemoryMemoryStore, inMemoryEngine, ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../dist/index.js';

async function listed(options) {
  const clock = new ManualClock('2026-05-01T10:00:00Z');
  const store = new InMemoryMemoryStore({ clock });
  const engine = inMemoryEngine(store, { embedder: new StaticEmbedder({}, undefined), clock });
  // Registration never calls maintenance or the import readers: empty stand-ins list the admin tools.
  const server = createMcpServer(
    { name: 'memsvc', version: '0.0.0' },
    { clock, engine, exports: new InMemoryExportStore(store, clock), ...options },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'sizes', version: '0.0.0' });
  await client.connect(clientSide);
  const result = await client.listTools();
  await client.close();
  return result;
}

const bytes = (value) => new TextEncoder().encode(JSON.stringify(value)).length;
const all = await listed({ maintenance: {}, imports: {}, pipeline: { adminToken: new Secret('x') }, toolSets: TOOL_SET_NAMES });
const size = new Map(all.tools.map((tool) => [tool.name, bytes(tool)]));
console.log('| set | tool | bytes |\n| --- | --- | ---: |');
console.log(`| (always) | \`ping\` | ${size.get('ping')} |`);
for (const set of TOOL_SET_NAMES) {
  for (const tool of TOOL_SETS[set]) console.log(`| ${set} | \`${tool}\` | ${size.get(tool)} |`);
}
const byDefault = await listed({ pipeline: {} });
console.log(
  `\nDefault tools/list (${DEFAULT_TOOL_SETS.join(', ')}; no MCP_ADMIN_TOKEN): ${bytes(byDefault)} bytes, ${byDefault.tools.length} tools.`,
);
console.log(`Every set with MCP_ADMIN_TOKEN: ${bytes(all)} bytes, ${all.tools.length} tools.`);
