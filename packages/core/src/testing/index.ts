export type { InMemoryMemoryStoreOptions, InMemoryStoreContents } from './in-memory-memory-store.js';
export { InMemoryMemoryStore } from './in-memory-memory-store.js';
export type { MemoryLink } from './in-memory-tenant.js';
export type { InMemoryVectorSpaceOptions } from './in-memory-vector-space.js';
export { InMemoryVectorSpace } from './in-memory-vector-space.js';
export { ManualClock } from './manual-clock.js';
export { ManualTimers } from './manual-timers.js';
export { SequentialIdGenerator } from './sequential-id-generator.js';
export { StaticEmbedder } from './static-embedder.js';
