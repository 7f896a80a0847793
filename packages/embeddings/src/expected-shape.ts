import { DEFAULT_EMBEDDING_MODEL, type EmbeddingProviderName, knownModelDimensions } from '@memsvc/core';

/**
 * What an embedding provider is expected to produce for a model before it has produced
 * anything: the model id it will use and the documented vector size (undefined when only the
 * first vector can tell). The providers themselves (ollama, openai, local, disabled) arrive with
 * the retrieval work; this is what the storage layer needs to type its vector column at boot.
 */
export interface ExpectedEmbeddingShape {
  readonly provider: EmbeddingProviderName;
  readonly model: string | undefined;
  readonly dimensions: number | undefined;
}

/** The model and dimensionality a provider configuration implies (spec §2.5 EMBEDDING_MODEL, VECTOR_DIMENSIONS). */
export function expectedEmbeddingShape(options: {
  provider: EmbeddingProviderName;
  model?: string | undefined;
  dimensions?: number | undefined;
}): ExpectedEmbeddingShape {
  const model = options.provider === 'disabled' ? undefined : (options.model ?? DEFAULT_EMBEDDING_MODEL[options.provider]);
  return { provider: options.provider, model, dimensions: options.dimensions ?? (model ? knownModelDimensions(model) : undefined) };
}
