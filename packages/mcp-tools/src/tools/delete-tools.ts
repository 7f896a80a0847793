import type { MemoryEngine } from '@memsvc/core';
import { z } from 'zod';
import { runTool, type ToolPipeline } from '../run-tool.js';
import { ignoredArgument, memoryIdArgument, userIdArgument } from '../tool-arguments.js';
import type { ToolRegistry } from '../tool-registry.js';
import { toolSuccess } from '../tool-result.js';
import { idsOutput, objectOutput, toolInput, toolOutput } from '../tool-schemas.js';

/** `delete_memory` and `bulk_delete_memories`. */
export function registerDeleteTools(tools: ToolRegistry, engine: MemoryEngine, pipeline: ToolPipeline): void {
  tools.register(
    'delete_memory',
    {
      title: 'Delete a memory',
      description: 'Delete one memory by id; restore_memory undoes it. To delete by what memories say, use forget.',
      inputSchema: toolInput({ userId: userIdArgument, memoryId: memoryIdArgument, actorLabel: ignoredArgument }),
      outputSchema: toolOutput({ deleted: z.boolean(), memoryId: z.string() }),
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'delete_memory', op: 'delete', userId: args.userId }, async (context) => ({
        result: toolSuccess({ deleted: await engine.delete(context, args.memoryId), memoryId: args.memoryId }),
      })),
  );

  tools.register(
    'bulk_delete_memories',
    {
      title: 'Delete several memories',
      description: 'Delete up to 100 memories by id; ids not found are reported in failed. restore_memory undoes each.',
      inputSchema: toolInput({
        userId: userIdArgument,
        memoryIds: z.array(memoryIdArgument).min(1).max(100),
        actorLabel: ignoredArgument,
      }),
      outputSchema: toolOutput({ deleted: idsOutput, failed: z.array(objectOutput), deletedCount: z.number(), failedCount: z.number() }),
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
