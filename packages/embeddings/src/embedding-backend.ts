/** What a text is embedded for: some models (nomic-embed-text) want to be told. */
export type EmbeddingPurpose = 'document' | 'query';

/** One HTTP embedding service: a single request for one batch, no retries, no breaker. */
export interface EmbeddingBackend {
  readonly provider: 'ollama' | 'openai';
  readonly model: string;
  /** Most texts one request may carry. */
  readonly maxBatch: number;
  embedBatch(texts: readonly string[], purpose: EmbeddingPurpose, signal: AbortSignal): Promise<number[][]>;
}

/**
 * A failed embedding request. `retryable` failures (connection refused, timeout, 429, 5xx) may
 * succeed if tried again; the others (bad key, unknown model, malformed reply) will not.
 */
export class EmbeddingRequestError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'EmbeddingRequestError';
  }
}
