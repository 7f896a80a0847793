import type { MemoryEngine } from '@memsvc/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { memoryJson } from '../memory-json.js';
import { runTool, type ToolPipeline } from '../run-tool.js';
import { memoryIdArgument, userIdArgument, wholeNumber } from '../tool-arguments.js';
import { toolSuccess } from '../tool-result.js';

/** `promote_memory`, `restore_memory` and `reembed_memory`. */
export function registerLifecycleTools(server: McpServer, engine: MemoryEngine, pipeline: ToolPipeline): void {
  server.registerTool(
    'promote_memory',
    {
      title: 'Promote a short-term memory to long-term',
      description:
        'Make a short-term memory long-term now (it keeps its id and stops expiring). If the same fact is already stored ' +
        'long-term, that memory is returned and the short-term one is removed (outcome "duplicate"). Returns {promoted, outcome, memory}.',
      inputSchema: z.object({ userId: userIdArgument, memoryId: memoryIdArgument, actorLabel: z.string().max(256).optional() }).strict(),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'promote_memory', op: 'promote', userId: args.userId }, async (context) => {
        const { memory, outcome } = await engine.promote(context, args.memoryId);
        return { tier: 'stm', result: toolSuccess({ promoted: outcome !== 'already-long-term', outcome, memory: memoryJson(memory) }) };
      }),
  );

  server.registerTool(
    'restore_memory',
    {
      title: 'Restore a memory',
      description:
        'Undo a deletion (omit version), or bring back the content, tags and metadata a memory had at an earlier version ' +
        '(one of the versions its newest 100 audit entries hold, see get_memory_audit; an older one is NOT_FOUND). The ' +
        'restore is itself a new, audited version. Returns {restored, memory}.',
      inputSchema: z
        .object({
          userId: userIdArgument,
          memoryId: memoryIdArgument,
          version: wholeNumber(1, 2_147_483_647, 'An earlier version to bring back; omit to undo a deletion.').optional(),
          actorLabel: z.string().max(256).optional(),
        })
        .strict(),
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'restore_memory', op: 'restore', userId: args.userId }, async (context) => {
        const memory = await engine.restore(context, args.memoryId, args.version);
        return { tier: memory.tier, result: toolSuccess({ restored: true, memory: memoryJson(memory) }) };
      }),
  );

  server.registerTool(
    'reembed_memory',
    {
      title: 'Re-embed a memory',
      description:
        "Compute the memory's vector again from its current content — after the embedding provider was down when it was " +
        'written, or after a model change. Does not change the version. Returns {memory}.',
      inputSchema: z.object({ userId: userIdArgument, memoryId: memoryIdArgument, actorLabel: z.string().max(256).optional() }).strict(),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'reembed_memory', op: 'reembed', userId: args.userId }, async (context) => {
        const memory = await engine.reembed(context, args.memoryId);
        return { tier: memory.tier, result: toolSuccess({ memory: memoryJson(memory) }) };
      }),
  );
}
