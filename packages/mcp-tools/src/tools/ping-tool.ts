import type { Clock } from '@memsvc/core';
import { z } from 'zod';
import { runTool, type ToolPipeline } from '../run-tool.js';
import type { ToolRegistry } from '../tool-registry.js';
import { toolSuccess } from '../tool-result.js';
import { toolInput, toolOutput } from '../tool-schemas.js';

/** `ping`: connectivity check; needs no credentials and touches no data. */
export function registerPingTool(tools: ToolRegistry, clock: Clock, pipeline: ToolPipeline): void {
  tools.register(
    'ping',
    {
      title: 'Ping',
      description: 'Check that memsvc is reachable; returns the server time.',
      inputSchema: toolInput({}),
      outputSchema: toolOutput({ status: z.literal('pong'), timestamp: z.string() }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (_args, request) =>
      runTool(pipeline, request, { kind: 'open', tool: 'ping' }, async () => ({
        result: toolSuccess({ status: 'pong' as const, timestamp: clock.now().toISOString() }),
      })),
  );
}
