export { ManualClock } from './manual-clock.js';
export { StaticEmbedder } from './static-embedder.js';
