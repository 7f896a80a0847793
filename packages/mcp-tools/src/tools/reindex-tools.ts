import type { Maintenance } from '@memsvc/core';
import { REINDEX_BATCH_SIZE, REINDEX_MAX_MEMORIES, type ReindexRequest, reindexJobJson } from '@memsvc/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { runTool, type ToolPipeline } from '../run-tool.js';
import { adminTokenArgument, adminUserIdArgument, wholeNumber } from '../tool-arguments.js';
import { toolSuccess } from '../tool-result.js';

const reindexArguments = {
  adminToken: adminTokenArgument,
  userId: adminUserIdArgument,
  batchSize: wholeNumber(
    REINDEX_BATCH_SIZE.min,
    REINDEX_BATCH_SIZE.max,
    `Memories per batch, ${REINDEX_BATCH_SIZE.min} to ${REINDEX_BATCH_SIZE.max} (default ${REINDEX_BATCH_SIZE.default}).`,
  ).optional(),
  reuseExistingEmbeddings: z
    .boolean()
    .optional()
    .describe('Keep vectors already made by the current model (default true); false computes every vector again.'),
  recreate: z
    .boolean()
    .optional()
    .describe(
      'Drop the vector index first and rebuild it at the end (and, with a new dimensionality, drop the old vectors). ' +
        'Only for an unscoped full run: refused with userId, cursor or maxMemories. After a model change use recreate with ' +
        'reuseExistingEmbeddings false.',
    ),
  cursor: z.string().max(64).optional().describe('Continue after this memory id (the cursor of a previous run).'),
  maxMemories: wholeNumber(1, REINDEX_MAX_MEMORIES, 'Stop after this many memories; the result cursor continues.').optional(),
};

const jobIdArguments = {
  adminToken: adminTokenArgument,
  jobId: z.string().max(64).describe('The jobId queue_reindex_memories returned.'),
};

/** The five reindex tools of spec §4.3, all admin-guarded. */
export function registerReindexTools(server: McpServer, maintenance: Maintenance, pipeline: ToolPipeline): void {
  server.registerTool(
    'reindex_memories',
    {
      title: 'Reindex memory vectors now',
      description:
        'Admin. Computes vectors for memories, in id order, in batches, and waits for the result: backfills memories stored ' +
        'while the embedding provider was down and, with reuseExistingEmbeddings false, recomputes every vector. Returns ' +
        '{processed, indexed, skipped, failed, cursor, stoppedBy}; cursor is null when the run reached the end, else pass it to ' +
        'continue. For large corpora prefer queue_reindex_memories.',
      inputSchema: z.object(reindexArguments).strict(),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'admin', tool: 'reindex_memories', adminToken: args.adminToken }, async () => ({
        result: toolSuccess({ scope: args.userId ?? 'all-users', ...(await maintenance.reindex(reindexRequest(args))) }),
      })),
  );

  server.registerTool(
    'queue_reindex_memories',
    {
      title: 'Queue a reindex job',
      description:
        'Admin. The same run as reindex_memories, as a background job: returns {jobId, state: "queued", createdAt} at once. ' +
        'Jobs run one at a time across all workers (the server runs them itself on the lite profile, on an embedded ' +
        'database, or with MEMSVC_SERVER_JOBS=true; otherwise memsvc-worker does). Progress and the cursor are saved after every batch; poll get_reindex_status.',
      inputSchema: z.object(reindexArguments).strict(),
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'admin', tool: 'queue_reindex_memories', adminToken: args.adminToken }, async () => {
        const job = await maintenance.queueReindex(reindexRequest(args), 'admin');
        return { result: toolSuccess({ jobId: job.jobId, state: job.state, createdAt: job.createdAt.toISOString() }) };
      }),
  );

  server.registerTool(
    'get_reindex_status',
    {
      title: 'Reindex job status',
      description:
        'Admin. The state (queued, running, completed, failed, cancelled), progress {processed, indexed, skipped, failed, cursor}, ' +
        'options, attempts and error of a reindex job. A job whose worker died shows failed with the reason; retry it.',
      inputSchema: z.object(jobIdArguments).strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'admin', tool: 'get_reindex_status', adminToken: args.adminToken }, async () => ({
        result: toolSuccess(reindexJobJson(await maintenance.reindexStatus(args.jobId))),
      })),
  );

  server.registerTool(
    'cancel_reindex_job',
    {
      title: 'Cancel a reindex job',
      description:
        'Admin. A queued job is cancelled at once; a running one gets cancelRequested and stops after its current batch ' +
        '(what it saved stays). Cancelling a finished job is a CONFLICT error. Returns the job.',
      inputSchema: z.object(jobIdArguments).strict(),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'admin', tool: 'cancel_reindex_job', adminToken: args.adminToken }, async () => ({
        result: toolSuccess(reindexJobJson(await maintenance.cancelReindex(args.jobId))),
      })),
  );

  server.registerTool(
    'retry_reindex_job',
    {
      title: 'Retry a reindex job',
      description:
        'Admin. Queues a failed or cancelled job again under the same jobId; it continues from its saved cursor with its counts, ' +
        'so no memory is skipped or done twice. Retrying a queued, running or completed job is a CONFLICT error. Returns the job.',
      inputSchema: z.object(jobIdArguments).strict(),
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
