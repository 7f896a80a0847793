import type { MemoryEngine } from '@memsvc/core';
import { z } from 'zod';
import { runTool, type ToolPipeline } from '../run-tool.js';
import { ignoredArgument, memoryIdArgument, userIdArgument, wholeNumber } from '../tool-arguments.js';
import type { ToolRegistry } from '../tool-registry.js';
import { toolSuccess } from '../tool-result.js';
import { memoryOutput, toolInput, toolOutput } from '../tool-schemas.js';
import { writtenMemoryJson } from '../written-memory-json.js';

/** `promote_memory`, `restore_memory` and `reembed_memory`. */
export function registerLifecycleTools(tools: ToolRegistry, engine: MemoryEngine, pipeline: ToolPipeline): void {
  tools.register(
    'promote_memory',
    {
      title: 'Promote a short-term memory to long-term',
      description:
        'Keep a short-term memory for good (same id, no expiry). If the fact is already stored long-term, that ' +
        'memory is returned instead (outcome "duplicate").',
      inputSchema: toolInput({ userId: userIdArgument, memoryId: memoryIdArgument, actorLabel: ignoredArgument }),
      outputSchema: toolOutput({ promoted: z.boolean(), outcome: z.string(), memory: memoryOutput }),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'promote_memory', op: 'promote', userId: args.userId }, async (context) => {
        const { memory, outcome } = await engine.promote(context, args.memoryId);
        // A promotion that collapsed names a long-term memory that may say it differently: its text comes along.
        const promotedMemory = writtenMemoryJson(memory, { withContent: outcome === 'duplicate' });
        return { tier: 'stm', result: toolSuccess({ promoted: outcome !== 'already-long-term', outcome, memory: promotedMemory }) };
      }),
  );

  tools.register(
    'restore_memory',
    {
      title: 'Restore a memory',
      description:
        'Undo a deletion (omit version), or bring back what a memory said at an earlier version (see ' +
        'get_memory_audit). The restore is itself a new version.',
      inputSchema: toolInput({
        userId: userIdArgument,
        memoryId: memoryIdArgument,
        version: wholeNumber(1, 2_147_483_647, 'Earlier version to bring back.').optional(),
        actorLabel: ignoredArgument,
      }),
      outputSchema: toolOutput({ restored: z.boolean(), memory: memoryOutput }),
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'restore_memory', op: 'restore', userId: args.userId }, async (context) => {
        const memory = await engine.restore(context, args.memoryId, args.version);
        // What the memory says now is what the restore decided: an earlier version's text.
        return { tier: memory.tier, result: toolSuccess({ restored: true, memory: writtenMemoryJson(memory, { withContent: true }) }) };
      }),
  );

  tools.register(
    'reembed_memory',
    {
      title: 'Re-embed a memory',
      description: "Compute a memory's vector again, e.g. when it was stored while the embedding model was unavailable.",
      inputSchema: toolInput({ userId: userIdArgument, memoryId: memoryIdArgument, actorLabel: ignoredArgument }),
      outputSchema: toolOutput({ memory: memoryOutput, embeddingModel: z.string().nullable() }),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'reembed_memory', op: 'reembed', userId: args.userId }, async (context) => {
        const memory = await engine.reembed(context, args.memoryId);
        return { tier: memory.tier, result: toolSuccess({ memory: writtenMemoryJson(memory), embeddingModel: memory.embeddingModel }) };
      }),
  );
}
