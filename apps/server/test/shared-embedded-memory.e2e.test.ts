import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { verifies } from '../../../packages/core/test/requirements.js';
import { serverBin, serverEnv } from './support/server-process.js';

const temporaryDirectory = () => mkdtempSync(join(tmpdir(), 'memsvc-shared-e2e-'));

// Issue 40, as a person's agents meet it: Claude Desktop, Claude Code and Cursor each start
// memsvc-server over stdio with the README's snippet, on the same directory.
describe('several stdio servers on one embedded memory', () => {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  const agent = async (env: Record<string, string>) => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [serverBin], env: serverEnv(env), stderr: 'ignore' });
    const client = new Client({ name: 'agent', version: '0.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  };

  it(verifies('R-PGLITE-SHARED', "three stdio servers on one directory all answer and each sees the others' writes"), async () => {
    const env = {
      DATABASE_URL: `pglite://${join(temporaryDirectory(), 'memory')}`,
      DEPLOYMENT_PROFILE: 'lite',
      EMBEDDING_PROVIDER: 'local',
      PORT: '0',
      HOST: '127.0.0.1',
    };
    const agents = [await agent(env), await agent(env), await agent(env)];
    for (const [i, client] of agents.entries()) {
      const result = await client.callTool({
        name: 'remember',
        arguments: { content: `Agent ${i} learned that the deploy key rotates on day ${i + 1}` },
      });
      expect(result.isError, JSON.stringify(result.structuredContent)).not.toBe(true);
    }
    for (const client of agents) {
      const found = (await client.callTool({ name: 'recall', arguments: { query: 'deploy key rotates', limit: 10 } }))
        .structuredContent as {
        results: { text: string }[];
      };
      expect(found.results.map((hit) => hit.text).sort()).toEqual(
        [0, 1, 2].map((i) => `Agent ${i} learned that the deploy key rotates on day ${i + 1}`),
      );
    }
  });

  it(
    verifies('R-PGLITE-SHARED', 'a stdio server that cannot start says why over MCP: in its instructions and in memsvc_status'),
    async () => {
      const file = join(temporaryDirectory(), 'not-a-directory');
      writeFileSync(file, 'x');
      const client = await agent({
        DATABASE_URL: `pglite://${file}`,
        DEPLOYMENT_PROFILE: 'lite',
        EMBEDDING_PROVIDER: 'local',
        PORT: '0',
        HOST: '127.0.0.1',
      });
      expect(client.getInstructions()).toMatch(/memsvc could not start: .*exists and is not a directory/);
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toEqual(['memsvc_status']);
      const status = await client.callTool({ name: 'memsvc_status', arguments: {} });
      expect(status.isError).toBe(true);
      expect(JSON.stringify(status.content)).toMatch(/exists and is not a directory/);
    },
  );
});
