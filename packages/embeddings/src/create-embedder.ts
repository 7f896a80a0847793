import type { Embedder, EmbeddingProviderName } from '@memsvc/core';
import { LocalEmbedder } from './local-embedder.js';

/** An embedder that never produces vectors: writes are stored without one (spec §1.10). */
export class DisabledEmbedder implements Embedder {
  readonly model = undefined;

  async embed(): Promise<undefined> {
    return undefined;
  }
}

export interface EmbedderChoice {
  readonly embedder: Embedder;
  /** Said once at boot when the choice falls short of what was configured. */
  readonly warning: string | undefined;
}

/**
 * The embedder for a provider name. `local` and `disabled` are complete. The HTTP providers
 * (`ollama`, `openai`) are not built yet: until they are, memsvc runs as if the provider were
 * unreachable — writes succeed without vectors and can be backfilled by a reindex — and says so.
 */
export function createEmbedder(options: { provider: EmbeddingProviderName; dimensions?: number | undefined }): EmbedderChoice {
  switch (options.provider) {
    case 'local':
      return { embedder: new LocalEmbedder(options.dimensions), warning: undefined };
    case 'disabled':
      return { embedder: new DisabledEmbedder(), warning: undefined };
    default:
      return {
        embedder: new DisabledEmbedder(),
        warning: `EMBEDDING_PROVIDER=${options.provider} is not available in this build yet: memories are stored without vectors (use EMBEDDING_PROVIDER=local for deterministic vectors)`,
      };
  }
}
