import type { MemoryEngine } from '@memsvc/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { runTool, type ToolPipeline } from '../run-tool.js';
import { memoryIdArgument, userIdArgument } from '../tool-arguments.js';
import { toolSuccess } from '../tool-result.js';

/** `delete_memory` and `bulk_delete_memories`. */
export function registerDeleteTools(server: McpServer, engine: MemoryEngine, pipeline: ToolPipeline): void {
  server.registerTool(
    'delete_memory',
    {
      title: 'Delete a memory',
      description:
        'Delete one memory. The deletion is audited and can be undone with restore_memory. Deleting a memory that is not ' +
        'there is not an error: the result says deleted=false. Returns {deleted, memoryId}.',
      inputSchema: z.object({ userId: userIdArgument, memoryId: memoryIdArgument, actorLabel: z.string().max(256).optional() }).strict(),
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'delete_memory', op: 'delete', userId: args.userId }, async (context) => ({
        result: toolSuccess({ deleted: await engine.delete(context, args.memoryId), memoryId: args.memoryId }),
      })),
  );

  server.registerTool(
    'bulk_delete_memories',
    {
      title: 'Delete several memories',
      description:
        'Delete 1 to 100 memories by id; each deletion is audited and restorable. An id that is not there is reported in ' +
        '"failed" and does not stop the others. Returns {deleted, failed, deletedCount, failedCount}.',
      inputSchema: z
        .object({
          userId: userIdArgument,
          memoryIds: z.array(memoryIdArgument).min(1).max(100),
          actorLabel: z.string().max(256).optional(),
        })
        .strict(),
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(
        pipeline,
        request,
        { kind: 'memory', tool: 'bulk_delete_memories', op: 'bulk_delete', userId: args.userId },
        async (context) => {
          const { deleted, notFound } = await engine.bulkDelete(context, args.memoryIds);
          return {
            result: toolSuccess({
              deleted,
              failed: notFound.map((id) => ({ id, reason: 'not-found' })),
              deletedCount: deleted.length,
              failedCount: notFound.length,
            }),
          };
        },
      ),
  );
}
