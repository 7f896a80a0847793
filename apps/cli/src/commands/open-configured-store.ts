import type { MemsvcConfig } from '@memsvc/core';
import { type MemsvcStore, openStore } from '@memsvc/store-pg';

/** Opens (and migrates) the store the configuration names, with its vector settings. */
export function openConfiguredStore(config: MemsvcConfig): Promise<MemsvcStore> {
  return openStore({
    database: config.database.target,
    vector: {
      dimensions: config.embedding.dimensions,
      model: config.embedding.model,
      hnswM: config.vectorIndex.hnswM,
      hnswEfConstruction: config.vectorIndex.hnswEfConstruction,
      hnswEfSearch: config.vectorIndex.hnswEfSearch,
    },
    pool: { applicationName: 'memsvc-cli', maxConnections: 2 },
  });
}
