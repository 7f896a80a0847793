import { type Clock, type Embedder, Maintenance, type MaintenanceEvents, type MemsvcConfig } from '@memsvc/core';
import type { MemsvcStore } from '@memsvc/store-pg';

/** The maintenance use-cases over an open store, with the configuration's thresholds. */
export function createMaintenance(deps: {
  store: MemsvcStore;
  embedder: Embedder;
  config: MemsvcConfig;
  clock: Clock;
  events?: MaintenanceEvents;
}): Maintenance {
  const { store, config } = deps;
  return new Maintenance({
    lifecycle: store.lifecycle,
    memories: store.memories,
    reindexStore: store.reindex,
    jobs: store.reindexJobs,
    embedder: deps.embedder,
    clock: deps.clock,
    settings: {
      promotion: {
        accessThreshold: config.shortTerm.consolidationAccessThreshold,
        importanceThreshold: config.shortTerm.consolidationImportanceThreshold,
      },
      decay: {
        halfLifeDays: config.importance.halfLifeDays,
        batchSize: config.decay.batchSize,
        staleScoreThreshold: config.decay.staleScoreThreshold,
        pruneScoreThreshold: config.decay.pruneScoreThreshold,
        pruneOlderThanDays: config.decay.pruneOlderThanDays,
      },
      similarity: config.similarity,
      mergeThreshold: config.similarity.mergeThreshold,
    },
    ...(deps.events ? { events: deps.events } : {}),
  });
}
