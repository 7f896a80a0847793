export type { EmbedderChoice } from './create-embedder.js';
export { createEmbedder, DisabledEmbedder } from './create-embedder.js';
export type { ExpectedEmbeddingShape } from './expected-shape.js';
export { expectedEmbeddingShape } from './expected-shape.js';
export { LOCAL_DIMENSIONS, LOCAL_MODEL, LocalEmbedder } from './local-embedder.js';
