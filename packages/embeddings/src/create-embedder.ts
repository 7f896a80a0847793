import type { Embedder, EmbeddingProviderName } from '@memsvc/core';
import { LocalEmbedder } from './local-embedder.js';
import { OllamaBackend } from './ollama-backend.js';
import { OPENAI_BASE_URL, OpenAiBackend } from './openai-backend.js';
import { DEFAULT_RESILIENCE, type EmbeddingRequestEvent, type ResilienceOptions, ResilientEmbedder } from './resilient-embedder.js';

/** Where Ollama answers when OLLAMA_URL is unset (spec §2.5). */
export const DEFAULT_OLLAMA_URL = 'http://localhost:11434';

/** An embedder that never produces vectors: writes are stored without one (spec §1.10). */
export class DisabledEmbedder implements Embedder {
  readonly model = undefined;

  async embed(): Promise<undefined> {
    return undefined;
  }
}

export interface EmbedderOptions {
  readonly provider: EmbeddingProviderName;
  /** EMBEDDING_MODEL; the provider's default when unset. */
  readonly model?: string | undefined;
  /** VECTOR_DIMENSIONS, or the model's documented size. */
  readonly dimensions?: number | undefined;
  readonly ollamaUrl?: string | undefined;
  readonly openaiApiKey?: { reveal(): string } | undefined;
  /** Where OpenAI's API lives (tests point it at a loopback server). */
  readonly openaiBaseUrl?: string | undefined;
  readonly resilience?: Partial<Omit<ResilienceOptions, 'dimensions' | 'onRequest'>>;
  /** Every HTTP embedding request, for metrics and logs. */
  readonly onRequest?: ((event: EmbeddingRequestEvent) => void) | undefined;
}

export interface EmbedderChoice {
  readonly embedder: Embedder;
  /** The provider actually in use (`disabled` when the configured one cannot run). */
  readonly provider: EmbeddingProviderName;
}

/**
 * The provider that will really run for a configuration: `disabled` for `openai` without an API
 * key (spec §2.5 and §7: generation silently disabled), else the configured one.
 */
export function providerInUse(options: Pick<EmbedderOptions, 'provider' | 'openaiApiKey'>): EmbeddingProviderName {
  return options.provider === 'openai' && !options.openaiApiKey ? 'disabled' : options.provider;
}

/**
 * The embedder for a configuration. `openai` without an API key is silently disabled (spec
 * §2.5 and §7): memories are stored without vectors, no error.
 */
export function createEmbedder(options: EmbedderOptions): EmbedderChoice {
  const resilience: ResilienceOptions = {
    ...DEFAULT_RESILIENCE,
    ...options.resilience,
    dimensions: options.dimensions,
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
  };
  switch (providerInUse(options)) {
    case 'local':
      return { embedder: new LocalEmbedder(options.dimensions), provider: 'local' };
    case 'ollama': {
      const backend = new OllamaBackend(options.ollamaUrl ?? DEFAULT_OLLAMA_URL, options.model ?? 'nomic-embed-text');
      return { embedder: new ResilientEmbedder(backend, resilience), provider: 'ollama' };
    }
    case 'openai': {
      const backend = new OpenAiBackend(
        options.model ?? 'text-embedding-3-small',
        options.openaiApiKey as { reveal(): string },
        options.openaiBaseUrl ?? OPENAI_BASE_URL,
      );
      return { embedder: new ResilientEmbedder(backend, resilience), provider: 'openai' };
    }
    case 'disabled':
      return { embedder: new DisabledEmbedder(), provider: 'disabled' };
  }
}
