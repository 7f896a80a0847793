import type { ReindexJob } from './reindex-rules.js';

/** A reindex job as clients read it: the admin tools' answer and the dashboard's live progress. */
export function reindexJobJson(job: ReindexJob) {
  return {
    jobId: job.jobId,
    state: job.state,
    progress: { ...job.progress },
    cancelRequested: job.cancelRequested,
    error: job.error,
    attempts: job.attempts,
    options: {
      userId: job.options.tenant ?? null,
      batchSize: job.options.batchSize,
      reuseExistingEmbeddings: job.options.reuseExistingEmbeddings,
      recreate: job.options.recreate,
      cursor: job.options.cursor ?? null,
      maxMemories: job.options.maxMemories ?? null,
    },
    createdAt: job.createdAt.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
    heartbeatAt: job.heartbeatAt?.toISOString() ?? null,
  };
}

/** What reindexJobJson returns. */
export type ReindexJobJson = ReturnType<typeof reindexJobJson>;
