import type { Maintenance } from '@memsvc/core';
import { REINDEX_BATCH_SIZE, REINDEX_MAX_MEMORIES, type ReindexRequest, reindexJobJson } from '@memsvc/core';
import { z } from 'zod';
import { runTool, type ToolPipeline } from '../run-tool.js';
import { adminTokenArgument, adminUserIdArgument, wholeNumber } from '../tool-arguments.js';
import { progressOf } from '../tool-progress.js';
import type { ToolRegistry } from '../tool-registry.js';
import { toolSuccess } from '../tool-result.js';
import { objectOutput, toolInput, toolOutput } from '../tool-schemas.js';

const reindexArguments = {
  adminToken: adminTokenArgument,
  userId: adminUserIdArgument,
  batchSize: wholeNumber(
    REINDEX_BATCH_SIZE.min,
    REINDEX_BATCH_SIZE.max,
    `Memories per batch (default ${REINDEX_BATCH_SIZE.default}).`,
  ).optional(),
  reuseExistingEmbeddings: z.boolean().optional().describe('Keep vectors of the current model (default true).'),
  recreate: z
    .boolean()
    .optional()
    .describe('Rebuild the vector index (a full run only). After a model change: recreate, reuseExistingEmbeddings false.'),
  cursor: z.string().max(64).optional().describe('Continue after this memory id.'),
  maxMemories: wholeNumber(1, REINDEX_MAX_MEMORIES, 'Stop after this many.').optional(),
};

const jobIdArguments = {
  adminToken: adminTokenArgument,
  jobId: z.string().max(64),
};

/** A reindex job as the job tools return it (reindexJobJson); its `error` is the job's failure, a string. */
const jobOutput = toolOutput({
  jobId: z.string(),
  state: z.string(),
  progress: objectOutput,
  cancelRequested: z.boolean(),
  error: z.union([z.string(), objectOutput]).nullable(),
  attempts: z.number(),
  options: objectOutput,
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  heartbeatAt: z.string().nullable(),
});

/** The five reindex tools of spec §4.3, all admin-guarded. */
export function registerReindexTools(tools: ToolRegistry, maintenance: Maintenance, pipeline: ToolPipeline): void {
  tools.register(
    'reindex_memories',
    {
      title: 'Reindex memory vectors now',
      description:
        'Admin. Compute missing vectors (or all, with reuseExistingEmbeddings false) and wait for the result. Pass ' +
        'the returned cursor back to continue; null means done. For a large corpus use queue_reindex_memories.',
      inputSchema: toolInput(reindexArguments),
      outputSchema: toolOutput({
        scope: z.string(),
        processed: z.number(),
        indexed: z.number(),
        skipped: z.number(),
        failed: z.number(),
        cursor: z.string().nullable(),
        stoppedBy: z.string(),
      }),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'admin', tool: 'reindex_memories', adminToken: args.adminToken }, async () => {
        const progress = progressOf(request);
        const onBatch = progress
          ? (batch: { processed: number }) => progress({ done: batch.processed, total: args.maxMemories, message: 'memories reindexed' })
          : undefined;
        progress?.({ done: 0, total: args.maxMemories, message: 'memories reindexed' });
        return {
          result: toolSuccess({ scope: args.userId ?? 'all-users', ...(await maintenance.reindex(reindexRequest(args), onBatch)) }),
        };
      }),
  );

  tools.register(
    'queue_reindex_memories',
    {
      title: 'Queue a reindex job',
      description: 'Admin. Run reindex_memories as a background job; returns its jobId at once. Follow it with get_reindex_status.',
      inputSchema: toolInput(reindexArguments),
      outputSchema: toolOutput({ jobId: z.string(), state: z.string(), createdAt: z.string() }),
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'admin', tool: 'queue_reindex_memories', adminToken: args.adminToken }, async () => {
        const job = await maintenance.queueReindex(reindexRequest(args), 'admin');
        return { result: toolSuccess({ jobId: job.jobId, state: job.state, createdAt: job.createdAt.toISOString() }) };
      }),
  );

  tools.register(
    'get_reindex_status',
    {
      title: 'Reindex job status',
      description: "Admin. A reindex job's state (queued, running, completed, failed, cancelled), progress and error.",
      inputSchema: toolInput(jobIdArguments),
      outputSchema: jobOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'admin', tool: 'get_reindex_status', adminToken: args.adminToken }, async () => ({
        result: toolSuccess(reindexJobJson(await maintenance.reindexStatus(args.jobId))),
      })),
  );

  tools.register(
    'cancel_reindex_job',
    {
      title: 'Cancel a reindex job',
      description: 'Admin. Cancel a queued job, or stop a running one after its current batch.',
      inputSchema: toolInput(jobIdArguments),
      outputSchema: jobOutput,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'admin', tool: 'cancel_reindex_job', adminToken: args.adminToken }, async () => ({
        result: toolSuccess(reindexJobJson(await maintenance.cancelReindex(args.jobId))),
      })),
  );

  tools.register(
    'retry_reindex_job',
    {
      title: 'Retry a reindex job',
      description: 'Admin. Run a failed or cancelled job again from where it stopped.',
      inputSchema: toolInput(jobIdArguments),
      outputSchema: jobOutput,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'admin', tool: 'retry_reindex_job', adminToken: args.adminToken }, async () => ({
        result: toolSuccess(reindexJobJson(await maintenance.retryReindex(args.jobId))),
      })),
  );
}

function reindexRequest(args: {
  userId?: string | undefined;
  batchSize?: number | undefined;
  reuseExistingEmbeddings?: boolean | undefined;
  recreate?: boolean | undefined;
  cursor?: string | undefined;
  maxMemories?: number | undefined;
}): ReindexRequest {
  const { userId, batchSize, reuseExistingEmbeddings, recreate, cursor, maxMemories } = args;
  return { userId, batchSize, reuseExistingEmbeddings, recreate, cursor, maxMemories };
}
