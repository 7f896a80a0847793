import type { MemoryEngineOptions } from '../engine/engine-parts.js';
import { createMemoryEngine, type MemoryEngine } from '../engine/memory-engine.js';
import { InMemoryErasureStore } from './in-memory-erasure-store.js';
import { InMemoryGrantStore } from './in-memory-grant-store.js';
import type { InMemoryMemoryStore } from './in-memory-memory-store.js';

/**
 * A complete engine over `store` and in-memory grant and erasure stores, for tests that need no
 * database: the engine a test would otherwise assemble by hand.
 */
export function inMemoryEngine(
  store: InMemoryMemoryStore,
  options: Omit<MemoryEngineOptions, 'store' | 'grants' | 'erasures'> & Partial<Pick<MemoryEngineOptions, 'grants' | 'erasures'>>,
): MemoryEngine {
  return createMemoryEngine({
    grants: new InMemoryGrantStore(),
    erasures: new InMemoryErasureStore(store, options.clock),
    ...options,
    store,
  });
}
