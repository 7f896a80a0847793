import type { MemsvcConfig } from '@memsvc/config';
import { type Clock, type Embedder, Maintenance, type MaintenanceEvents, type Tracer } from '@memsvc/core';
import type { MemsvcStore } from '@memsvc/store-pg';
import type { Metrics } from './metrics.js';

/** The maintenance use-cases over an open store, with the configuration's thresholds. */
export function createMaintenance(deps: {
  store: MemsvcStore;
  embedder: Embedder;
  config: MemsvcConfig;
  clock: Clock;
  /** Counts promotions, consolidation runs and reindex runs in the spec's metrics. */
  metrics?: Metrics;
  /** A synchronous reindex's span. */
  tracer?: Tracer;
}): Maintenance {
  const { store, config } = deps;
  return new Maintenance({
    lifecycle: store.lifecycle,
    memories: store.memories,
    reindexStore: store.reindex,
    jobs: store.reindexJobs,
    review: store.review,
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
    ...(deps.metrics ? { events: maintenanceMetrics(deps.metrics) } : {}),
    ...(deps.tracer ? { tracer: deps.tracer } : {}),
  });
}

/** The maintenance events as the counters of spec §4.2. */
export function maintenanceMetrics(metrics: Metrics): MaintenanceEvents {
  return {
    promoted: (count) => metrics.memoriesPromoted.inc(count),
    consolidationRun: (status) => metrics.consolidationRuns.inc({ status }),
    reindex: (status) => metrics.reindexOperations.inc({ status }),
  };
}
