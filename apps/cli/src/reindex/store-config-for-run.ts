import type { MemsvcConfig, ReindexRequest } from '@memsvc/core';

/**
 * The configuration the store is opened with for a run. Opening a store fixes the configured
 * vector size, and a database holding vectors of another size refuses it (DIMENSION_MISMATCH) —
 * which would make the one run meant to change the size (spec §4.4: `--recreate --regenerate`
 * after a model or dimension change) impossible. So a recreate opens the store without the
 * pin; the run learns the new size from the provider and retypes the column itself.
 */
export function storeConfigForRun(config: MemsvcConfig, request: ReindexRequest): MemsvcConfig {
  if (!request.recreate) return config;
  return { ...config, embedding: { ...config.embedding, model: undefined, dimensions: undefined } };
}
