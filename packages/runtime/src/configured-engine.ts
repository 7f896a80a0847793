import type { MemsvcConfig } from '@memsvc/config';
import {
  type Clock,
  createMemoryEngine,
  type Embedder,
  type EmbeddingProviderName,
  FUSION_WEIGHTS,
  type MemoryEngine,
  type Tracer,
} from '@memsvc/core';
import type { MemsvcStore } from '@memsvc/store-pg';
import type { Logger } from './logger.js';

/** What the engine is built on: the opened store, the embedder in use, and the runtime's clock, tracer and logger. */
export interface EngineParts {
  readonly store: MemsvcStore;
  readonly embedder: Embedder;
  readonly provider: EmbeddingProviderName;
  readonly clock: Clock;
  readonly tracer: Tracer;
  readonly logger: Logger;
}

/**
 * The configuration's memory engine, the one mapping of settings to engine options: every entry
 * point (server, worker, CLI, dashboard) gets a complete engine from here, never a partial one.
 */
export function configuredEngine(config: MemsvcConfig, parts: EngineParts): MemoryEngine {
  const { store, embedder, provider, clock, tracer, logger } = parts;
  return createMemoryEngine({
    // With DATABASE_READ_URL, the store that sends the read tools' reads to the standby.
    store: store.readReplica?.memories ?? store.memories,
    embedder,
    clock,
    fusion: FUSION_WEIGHTS[provider],
    onBackgroundError: (error) => logger.warn({ err: error }, 'recording memory accesses failed'),
    settings: { similarity: config.similarity, importanceHalfLifeDays: config.importance.halfLifeDays },
    tracer,
    // Grants are read on the primary: a revocation applies to the next call, whatever replica serves it.
    grants: store.grants,
    erasures: store.erasures,
  });
}
