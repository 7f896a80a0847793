import type { Maintenance } from '@memsvc/core';
import { CORPUS_SEEDS } from '@memsvc/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { runTool, type ToolPipeline } from '../run-tool.js';
import { adminTokenArgument, adminUserIdArgument, scopeArgument, wholeNumber } from '../tool-arguments.js';
import { toolSuccess } from '../tool-result.js';

/** `consolidate_memories` (short-term → long-term promotion now) and `consolidate_corpus` (near-duplicate merging). */
export function registerConsolidationTools(server: McpServer, maintenance: Maintenance, pipeline: ToolPipeline): void {
  server.registerTool(
    'consolidate_memories',
    {
      title: 'Promote qualifying short-term memories now',
      description:
        'Admin. Runs the short-term → long-term promotion pass the scheduler runs every STM_CONSOLIDATION_INTERVAL_MS: every live ' +
        'short-term memory read at least STM_CONSOLIDATION_ACCESS_THRESHOLD times (and, when set, with importance at least ' +
        'STM_CONSOLIDATION_IMPORTANCE_THRESHOLD) becomes long-term, keeping its id; one that duplicates a long-term memory collapses ' +
        'into it. Returns {scanned, promoted, collapsed, skipped, failed, promotedIds}.',
      inputSchema: z.object({ adminToken: adminTokenArgument, userId: adminUserIdArgument }).strict(),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'admin', tool: 'consolidate_memories', adminToken: args.adminToken }, async () => ({
        result: toolSuccess({ ...(await maintenance.promoteShortTerm({ userId: args.userId })) }),
      })),
  );

  server.registerTool(
    'consolidate_corpus',
    {
      title: 'Merge near-duplicate long-term memories',
      description:
        'Admin. Finds long-term memories of one tenant and scope whose similarity lies in [MEMORY_CONSOLIDATION_MERGE_THRESHOLD, ' +
        'MEMORY_DUPLICATE_THRESHOLD) and groups them. Dry run by default: returns the clusters it would merge. With dryRun false each ' +
        'cluster merges into its canonical memory (highest importance score; pinned, then newest, wins a tie), which gains all their ' +
        'tags; the others are hidden as superseded (not deleted), linked duplicate-of it and audited — restore_memory of their ' +
        'previous version undoes a merge. Contradicted memories never merge. Returns {dryRun, scanned, clusters, merged, ' +
        'skippedConcurrentEdit, cursor, perCluster, perClusterTruncated}; pass cursor to continue.',
      inputSchema: z
        .object({
          adminToken: adminTokenArgument,
          userId: adminUserIdArgument,
          scope: scopeArgument.optional(),
          dryRun: z.boolean().default(true).describe('Only report the clusters (default true).'),
          limit: wholeNumber(1, CORPUS_SEEDS.max, `Seed memories to examine (default ${CORPUS_SEEDS.default}).`).optional(),
          cursor: z.string().max(64).optional().describe('The cursor of a previous pass, to continue after it.'),
        })
        .strict(),
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'admin', tool: 'consolidate_corpus', adminToken: args.adminToken }, async () => ({
        result: toolSuccess({ ...(await maintenance.consolidateCorpus(args)) }),
      })),
  );
}
