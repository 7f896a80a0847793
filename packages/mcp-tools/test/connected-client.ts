import { TOOL_SET_NAMES } from '@memsvc/config';
import type { Clock, MemoryEngine } from '@memsvc/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../src/index.js';

/** An SDK client connected in process to a server with every tool set over `engine`, as user `alice`. */
export async function connectedClient(engine: MemoryEngine, clock: Clock): Promise<Client> {
  const server = createMcpServer(
    { name: 'memsvc-test', version: '0.0.0' },
    { clock, engine, pipeline: { defaultUserId: 'alice' }, toolSets: TOOL_SET_NAMES },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test-client', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}
