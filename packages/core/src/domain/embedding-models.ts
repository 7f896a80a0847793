/** The embedding providers of spec §2.5. */
export const EMBEDDING_PROVIDERS = ['ollama', 'openai', 'local', 'disabled'] as const;
export type EmbeddingProviderName = (typeof EMBEDDING_PROVIDERS)[number];

/** The model each provider uses when `EMBEDDING_MODEL` is unset (spec §2.5). */
export const DEFAULT_EMBEDDING_MODEL: Readonly<Record<EmbeddingProviderName, string | undefined>> = {
  ollama: 'nomic-embed-text',
  openai: 'text-embedding-3-small',
  local: 'memsvc-local-v1',
  disabled: undefined,
};

/**
 * Output sizes of models whose dimensionality is fixed and documented, so the vector column can
 * be typed before the first embedding arrives. Unknown models fall back to the first vector.
 */
const KNOWN_MODEL_DIMENSIONS: Readonly<Record<string, number>> = {
  'nomic-embed-text': 768,
  'mxbai-embed-large': 1024,
  'all-minilm': 384,
  'snowflake-arctic-embed': 1024,
  'bge-m3': 1024,
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
  'memsvc-local-v1': 384,
};

/** The documented dimensionality of a model, ignoring an Ollama `:tag` suffix; undefined when unknown. */
export function knownModelDimensions(model: string): number | undefined {
  return KNOWN_MODEL_DIMENSIONS[model] ?? KNOWN_MODEL_DIMENSIONS[model.split(':')[0] ?? model];
}
