import type { Clock } from '@memsvc/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { runTool, type ToolPipeline } from '../run-tool.js';
import { toolSuccess } from '../tool-result.js';

/** `ping`: connectivity check; needs no credentials and touches no data. */
export function registerPingTool(server: McpServer, clock: Clock, pipeline: ToolPipeline): void {
  server.registerTool(
    'ping',
    {
      title: 'Ping',
      description: 'Check that the memsvc server is reachable. Returns {"status":"pong","timestamp":<ISO time>}. Takes no arguments.',
      inputSchema: z.object({}).strict(),
      // No outputSchema, as for every tool: the SDK's client checks any structuredContent against
      // it, error results included, so the typed error every tool returns (structuredContent.error)
      // would reach a client that listed the tools as a schema violation instead.
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (_args, request) =>
      runTool(pipeline, request, { kind: 'open', tool: 'ping' }, async () => ({
        result: toolSuccess({ status: 'pong' as const, timestamp: clock.now().toISOString() }),
      })),
  );
}
