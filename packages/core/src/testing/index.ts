export { ManualClock } from './manual-clock.js';
export { ManualTimers } from './manual-timers.js';
export { StaticEmbedder } from './static-embedder.js';
