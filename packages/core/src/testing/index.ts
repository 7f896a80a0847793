// The engine's write path below its input checks, so a store adapter's tests can drive a write
// (or an update) into their store exactly as the engine does, with chosen vectors and decisions.
export { updateMemory } from '../engine/update-memory.js';
export { writeMemory } from '../engine/write-memory.js';
export { inMemoryEngine } from './in-memory-engine.js';
export { InMemoryErasureStore } from './in-memory-erasure-store.js';
export { InMemoryExportStore } from './in-memory-export-store.js';
export { InMemoryGrantStore } from './in-memory-grant-store.js';
export { InMemoryImportLedger } from './in-memory-import-ledger.js';
export type { InMemoryMemoryStoreOptions, InMemoryStoreContents } from './in-memory-memory-store.js';
export { InMemoryMemoryStore } from './in-memory-memory-store.js';
export type { MemoryLink } from './in-memory-tenant.js';
export type { InMemoryVectorSpaceOptions } from './in-memory-vector-space.js';
export { InMemoryVectorSpace } from './in-memory-vector-space.js';
export { ManualClock } from './manual-clock.js';
export { ManualTimers } from './manual-timers.js';
export type { RecordedSpan } from './recording-tracer.js';
export { RecordingTracer } from './recording-tracer.js';
export { SequentialIdGenerator } from './sequential-id-generator.js';
export { StaticEmbedder } from './static-embedder.js';
