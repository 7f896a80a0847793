import { createMemoryEngine, type MemoryEngine } from '@memsvc/core';
import { ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { beforeEach } from 'vitest';
import type { StoreKind } from './each-store.js';

/** The morning every words-only suite starts at. */
const START = '2026-04-01T09:00:00.000Z';

/**
 * The engine the write-rule suites run on each store: no vectors (the embedder is unavailable,
 * so only words can find a neighbour and the contradiction band sees nothing), a manual clock
 * set back to START and an empty store before every test. `engine()` is that test's engine.
 */
export function wordsOnlyEngine(kind: StoreKind) {
  const clock = new ManualClock(START);
  const store = kind.use({ clock, dimensions: 3 });
  const embedder = new StaticEmbedder({}, 'static-test');
  let engine: MemoryEngine | undefined;
  beforeEach(async () => {
    clock.set(START);
    embedder.available = false;
    await store.reset();
    engine = createMemoryEngine({ store: store.memories, embedder, clock, grants: store.grants, erasures: store.erasures });
  });
  return {
    clock,
    store,
    engine(): MemoryEngine {
      if (!engine) throw new Error('wordsOnlyEngine: the engine exists from the first beforeEach on');
      return engine;
    },
  };
}
