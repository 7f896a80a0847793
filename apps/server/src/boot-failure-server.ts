import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { SERVER_VERSION } from './server-version.js';
import { SERVER_NAME } from './start-server.js';

/**
 * Over stdio the MCP client starts memsvc and shows the person only what comes back over MCP:
 * a server that exits at boot is "Connection closed", its reason lost in a log the client hides.
 * So a stdio server that cannot start still answers `initialize`, with the reason as its
 * instructions, and offers one tool, `memsvc_status`, whose result is the reason. It exits when
 * the client closes stdin, with the exit code of a failed start.
 */
export async function serveBootFailure(reason: string): Promise<void> {
  const message = `memsvc could not start: ${reason}`;
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION }, { instructions: message });
  server.registerTool(
    'memsvc_status',
    { title: 'Why memsvc is unavailable', description: `memsvc is not working: ${message}`, annotations: { readOnlyHint: true } },
    async () => ({ isError: true, content: [{ type: 'text', text: message }] }),
  );
  process.stdin.once('end', () => process.exit(1));
  await server.connect(new StdioServerTransport());
}
