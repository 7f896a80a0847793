import type { MemsvcConfig } from '@memsvc/config';
import { knownModelDimensions, type ReindexRequest } from '@memsvc/core';
import type { MemsvcStore } from '@memsvc/store-pg';

/**
 * The configuration the store is opened with for a run: never pinned to the configured vector
 * size. Opening a store with a size fixes it on a database that has none, before the provider
 * has given a single vector, so a run whose provider is down or misconfigured would leave a new
 * database typed for a model it never used and refuse the right run afterwards. The run fixes
 * the size with its first vector instead (the reindex store does), and checkConfiguredSize
 * refuses a run whose size differs from the one the database already has before anything is
 * embedded.
 */
export function storeConfigForRun(config: MemsvcConfig): MemsvcConfig {
  return { ...config, embedding: { ...config.embedding, model: undefined, dimensions: undefined } };
}

/**
 * DIMENSION_MISMATCH when the configured size is known and differs from the database's. Not for
 * a recreate (spec §4.4: `--recreate --regenerate` after a model or dimension change): that run
 * is the one that changes the size, learning the new one from the provider.
 */
export async function checkConfiguredSize(store: MemsvcStore, config: MemsvcConfig, request: ReindexRequest): Promise<void> {
  if (request.recreate) return;
  const { model, dimensions } = config.embedding;
  const configured = dimensions ?? (model ? knownModelDimensions(model) : undefined);
  if (configured === undefined || (await store.vectorSpace.describe()) === undefined) return;
  // The space exists, so this only compares.
  await store.vectorSpace.ensure(configured, model ?? null);
}
