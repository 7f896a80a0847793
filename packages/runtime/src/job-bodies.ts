import type { Maintenance } from '@memsvc/core';
import type { Logger } from './logger.js';
import type { ScheduledJobName } from './scheduled-jobs.js';

/** Largest corpus-consolidation pass a schedule runs (seeds); the cursor carries on next tick. */
const SCHEDULED_CORPUS_SEEDS = 2_000;

/**
 * What each scheduled job does, as a function returning the status scheduler_state records.
 * Every run logs one line with its counts.
 */
export function scheduledJobBody(name: ScheduledJobName, maintenance: Maintenance, logger: Logger): () => Promise<string> {
  switch (name) {
    case 'stm-expiry-sweep':
      return async () => {
        const deleted = await maintenance.sweepExpiredShortTerm();
        logger.info({ job: name, deleted }, 'expired short-term memories swept');
        return 'success';
      };
    case 'stm-promotion':
      return async () => {
        const { promotedIds: _ids, ...counts } = await maintenance.promoteShortTerm();
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
        const result = await maintenance.decayScan();
        logger.info({ job: name, ...result }, 'decay scan finished');
        return 'success';
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
