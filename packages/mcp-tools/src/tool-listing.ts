import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ListToolsResult } from '@modelcontextprotocol/sdk/types.js';

type RequestHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * Leaves out of `tools/list` the registered tools not in `listed`, which stay callable (an admin
 * tool on a server without MCP_ADMIN_TOKEN: refused by the admin check, as every admin call can
 * be). The SDK lists every enabled tool and offers no filter, so this wraps the list handler it
 * registered — private API, like typeSdkToolErrors: the tool-surface tests assert what is
 * listed and what a hidden tool answers, so an SDK change that bypasses it fails them.
 */
export function hideFromListing(server: McpServer, listed: ReadonlySet<string>): void {
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, RequestHandler> })._requestHandlers;
  const list = handlers.get('tools/list');
  if (!list) return;
  handlers.set('tools/list', async (request, extra) => {
    const result = (await list(request, extra)) as ListToolsResult;
    return { ...result, tools: result.tools.filter((tool) => listed.has(tool.name)) };
  });
}
