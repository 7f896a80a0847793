import type { Maintenance } from '@memsvc/core';
import type { Logger } from './logger.js';
import type { ScheduledJobName } from './scheduled-jobs.js';

/** Largest corpus-consolidation pass a schedule runs (seeds); the cursor carries on next tick. */
const SCHEDULED_CORPUS_SEEDS = 2_000;

/**
 * What each scheduled job does, as a function returning the status scheduler_state records.
 * Every run logs one line with its counts. `stopping` is aborted when the process shuts down.
 */
export function scheduledJobWork(
  name: ScheduledJobName,
  maintenance: Maintenance,
  logger: Logger,
  stopping: AbortSignal = new AbortController().signal,
): () => Promise<string> {
  switch (name) {
    case 'stm-expiry-sweep':
      return async () => {
        const deleted = await maintenance.sweepExpiredShortTerm();
        logger.info({ job: name, deleted }, 'expired short-term memories swept');
        return 'success';
      };
    case 'stm-promotion':
      return async () => {
        const { promotedIds: _ids, ...counts } = await maintenance.promoteShortTerm({ scheduled: true });
        logger.info({ job: name, ...counts }, 'short-term promotion pass finished');
        return counts.failed > 0 ? 'partial' : 'success';
      };
    case 'auth-store-sweep':
      return async () => {
        const counts = await maintenance.sweepAuthStore();
        logger.info({ job: name, ...counts }, 'expired auth records swept');
        return 'success';
      };
    case 'ltm-decay':
      return async () => {
        // A pass over a large corpus takes long; on shutdown it stops after the batch in hand and
        // the next pass resumes from the cursor it saved (a worker stopped mid-pass had waited 22 s at 20k memories).
        const result = await maintenance.decayScan({ signal: stopping });
        logger.info(
          { job: name, ...result },
          result.completed ? 'decay scan finished' : 'decay scan stopped for shutdown; the next pass resumes',
        );
        return result.completed ? 'success' : 'stopped';
      };
    case 'corpus-consolidation':
      return async () => {
        // The position is kept in the database, so passes continue across ticks, workers and restarts.
        const cursor = await maintenance.jobCursor(name);
        const result = await maintenance.consolidateCorpus({ dryRun: false, limit: SCHEDULED_CORPUS_SEEDS, cursor });
        await maintenance.saveJobCursor(name, result.cursor ?? undefined);
        const { perCluster: _clusters, ...counts } = result;
        logger.info({ job: name, ...counts }, 'corpus consolidation pass finished');
        return counts.skippedConcurrentEdit > 0 ? 'partial' : 'success';
      };
  }
}
