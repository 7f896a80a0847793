import type { Maintenance } from '@memsvc/core';
import { CORPUS_SEEDS } from '@memsvc/core';
import { z } from 'zod';
import { runTool, type ToolPipeline } from '../run-tool.js';
import { adminTokenArgument, adminUserIdArgument, scopeArgument, wholeNumber } from '../tool-arguments.js';
import { progressOf } from '../tool-progress.js';
import type { ToolRegistry } from '../tool-registry.js';
import { toolSuccess } from '../tool-result.js';
import { idsOutput, objectOutput, toolInput, toolOutput } from '../tool-schemas.js';

/** `consolidate_memories` (short-term → long-term promotion now) and `consolidate_corpus` (near-duplicate merging). */
export function registerConsolidationTools(tools: ToolRegistry, maintenance: Maintenance, pipeline: ToolPipeline): void {
  tools.register(
    'consolidate_memories',
    {
      title: 'Promote qualifying short-term memories now',
      description:
        'Admin. Run now the pass that moves short-term memories read often enough (and important enough) to ' +
        'long-term; the server also runs it on a schedule.',
      inputSchema: toolInput({ adminToken: adminTokenArgument, userId: adminUserIdArgument }),
      outputSchema: toolOutput({
        scanned: z.number(),
        promoted: z.number(),
        collapsed: z.number(),
        skipped: z.number(),
        failed: z.number(),
        promotedIds: idsOutput,
      }),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'admin', tool: 'consolidate_memories', adminToken: args.adminToken }, async () => {
        const onProgress = progressOf(request);
        onProgress?.({ done: 0, message: 'short-term memories examined' });
        return { result: toolSuccess({ ...(await maintenance.promoteShortTerm({ userId: args.userId, onProgress })) }) };
      }),
  );

  tools.register(
    'consolidate_corpus',
    {
      title: 'Merge near-duplicate long-term memories',
      description:
        'Admin. Find clusters of near-duplicate long-term memories. A dry run (default) only reports them; with ' +
        'dryRun false each cluster merges into one memory, the others hidden as superseded (restorable). Pass cursor ' +
        'back to continue.',
      inputSchema: toolInput({
        adminToken: adminTokenArgument,
        userId: adminUserIdArgument,
        scope: scopeArgument.optional(),
        dryRun: z.boolean().default(true),
        limit: wholeNumber(1, CORPUS_SEEDS.max, `Memories to examine (default ${CORPUS_SEEDS.default}).`).optional(),
        cursor: z.string().max(64).optional(),
      }),
      outputSchema: toolOutput({
        dryRun: z.boolean(),
        scanned: z.number(),
        clusters: z.number(),
        merged: z.number(),
        skippedConcurrentEdit: z.number(),
        cursor: z.string().nullable(),
        perCluster: z.array(objectOutput),
        perClusterTruncated: z.boolean(),
      }),
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'admin', tool: 'consolidate_corpus', adminToken: args.adminToken }, async () => {
        const onProgress = progressOf(request);
        onProgress?.({ done: 0 });
        return { result: toolSuccess({ ...(await maintenance.consolidateCorpus({ ...args, onProgress })) }) };
      }),
  );
}
