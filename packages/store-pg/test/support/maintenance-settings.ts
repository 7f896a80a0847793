import type { LifecycleSettings } from '@memsvc/core';

/** The spec's default thresholds (§2.5), with a decay batch of 2 so tests see the cursor move. */
export const TEST_LIFECYCLE_SETTINGS: LifecycleSettings = {
  promotion: { accessThreshold: 3, importanceThreshold: undefined },
  decay: { halfLifeDays: 14, batchSize: 2, staleScoreThreshold: 0.3, pruneScoreThreshold: 0.15, pruneOlderThanDays: 30 },
  similarity: { duplicateThreshold: 0.97, contradictionThreshold: 0.8, contradictionThresholdMax: 0.97, contradictionPolicy: 'flag' },
  mergeThreshold: 0.85,
};
