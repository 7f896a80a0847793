import type { ErasureReceipt, MemoryEngine } from '@memsvc/core';
import { z } from 'zod';
import { runTool, type ToolPipeline } from '../run-tool.js';
import { ignoredArgument, memoryIdArgument, userIdArgument } from '../tool-arguments.js';
import type { ToolRegistry } from '../tool-registry.js';
import { toolSuccess } from '../tool-result.js';
import { idsOutput, objectOutput, toolInput, toolOutput } from '../tool-schemas.js';

const eraseArgument = z
  .boolean()
  .optional()
  .describe('Erase for good instead: every version, vector and index entry, not restorable; returns a receipt.');

/** An erasure's receipt as the tools return it: what was erased where, when, and the digest verify_erasure checks. */
export function receiptJson(receipt: ErasureReceipt) {
  return {
    erasureId: receipt.erasureId,
    erasedAt: receipt.erasedAt.toISOString(),
    memoryIds: [...receipt.memoryIds],
    digest: receipt.digest,
    counts: { ...receipt.counts },
    state: receipt.state,
  };
}

/** `delete_memory`, `bulk_delete_memories` and `verify_erasure`. */
export function registerDeleteTools(tools: ToolRegistry, engine: MemoryEngine, pipeline: ToolPipeline): void {
  tools.register(
    'delete_memory',
    {
      title: 'Delete a memory',
      description:
        'Delete one memory by id; restore_memory undoes it. With erase, erase it for good (not restorable; a receipt). To delete by what memories say, use forget.',
      inputSchema: toolInput({ userId: userIdArgument, memoryId: memoryIdArgument, erase: eraseArgument, actorLabel: ignoredArgument }),
      outputSchema: toolOutput({ deleted: z.boolean(), memoryId: z.string(), erased: z.boolean(), receipt: objectOutput }),
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'delete_memory', op: 'delete', userId: args.userId }, async (context) => {
        if (!args.erase) return { result: toolSuccess({ deleted: await engine.delete(context, args.memoryId), memoryId: args.memoryId }) };
        const receipt = await engine.erase(context, [args.memoryId]);
        return { result: toolSuccess({ deleted: true, erased: true, memoryId: args.memoryId, receipt: receiptJson(receipt) }) };
      }),
  );

  tools.register(
    'bulk_delete_memories',
    {
      title: 'Delete several memories',
      description: 'Delete up to 100 memories by id; ids not found are reported in failed. restore_memory undoes each.',
      inputSchema: toolInput({
        userId: userIdArgument,
        memoryIds: z.array(memoryIdArgument).min(1).max(100),
        erase: eraseArgument.describe('Erase them all for good, in one transaction: all or none (an unknown id refuses the call).'),
        actorLabel: ignoredArgument,
      }),
      outputSchema: toolOutput({
        deleted: idsOutput,
        failed: z.array(objectOutput),
        deletedCount: z.number(),
        failedCount: z.number(),
        receipt: objectOutput,
      }),
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(
        pipeline,
        request,
        { kind: 'memory', tool: 'bulk_delete_memories', op: 'bulk_delete', userId: args.userId },
        async (context) => {
          if (args.erase) {
            const receipt = await engine.erase(context, args.memoryIds);
            const erased = [...receipt.memoryIds];
            return {
              result: toolSuccess({
                deleted: erased,
                failed: [],
                deletedCount: erased.length,
                failedCount: 0,
                receipt: receiptJson(receipt),
              }),
            };
          }
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

  tools.register(
    'verify_erasure',
    {
      title: 'Verify an erasure',
      description:
        'Check, now, that nothing of the memories an erasure took remains (rows, versions, vectors, index entries, links, ' +
        'import records, references) and that its record still gives its digest.',
      inputSchema: toolInput({ userId: userIdArgument, erasureId: z.string().min(1).max(64).describe("The receipt's erasureId.") }),
      outputSchema: toolOutput({ erasureId: z.string(), verified: z.boolean(), digestMatches: z.boolean(), remaining: objectOutput }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'verify_erasure', op: 'verify_erasure', userId: args.userId }, async (context) => {
        const check = await engine.verifyErasure(context, args.erasureId);
        return { result: toolSuccess({ ...check, remaining: { ...check.remaining } }) };
      }),
  );
}
