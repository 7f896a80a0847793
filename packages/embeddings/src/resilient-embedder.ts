import { type Embedder, MemsvcError } from '@memsvc/core';
import { CircuitBreaker } from './circuit-breaker.js';
import { type EmbeddingBackend, type EmbeddingPurpose, EmbeddingRequestError } from './embedding-backend.js';

/** One embedding request as the metrics and logs see it. */
export interface EmbeddingRequestEvent {
  readonly provider: string;
  /** `success`, `error` (after its retries), or `short_circuited` (refused by the open circuit). */
  readonly status: 'success' | 'error' | 'short_circuited';
  readonly texts: number;
  readonly seconds: number;
  readonly attempts: number;
  readonly error?: string;
}

/** What a reachability probe found; `error` is the provider's or the connection's own words. */
export interface EmbeddingProbe {
  readonly reachable: boolean;
  readonly error?: string;
}

export interface ResilienceOptions {
  /** Per attempt. */
  readonly timeoutMs: number;
  /** Attempts per batch, the first included. */
  readonly maxAttempts: number;
  /** Backoff before attempt n+1: baseDelayMs × 4^(n−1), with ±50% jitter. */
  readonly baseDelayMs: number;
  readonly failureThreshold: number;
  readonly cooldownMs: number;
  /** A pinned or documented size: a vector of any other size is refused. */
  readonly dimensions?: number | undefined;
  readonly onRequest?: (event: EmbeddingRequestEvent) => void;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_RESILIENCE: Omit<ResilienceOptions, 'dimensions' | 'onRequest' | 'now' | 'sleep'> = Object.freeze({
  timeoutMs: 5000,
  maxAttempts: 3,
  baseDelayMs: 100,
  failureThreshold: 3,
  cooldownMs: 30_000,
});

/**
 * An HTTP embedding provider made safe for the write path: texts go in batches of the
 * provider's size, each request has a timeout, transient failures are retried a bounded number
 * of times, and a circuit breaker stops calling a provider that keeps failing. When no vector
 * can be had, `embed` resolves to undefined and the write goes ahead without one (spec §1.10).
 * A reply with vectors of the wrong size is not an outage but a misconfiguration: it throws
 * DIMENSION_MISMATCH, so nothing is stored with a wrong vector.
 */
export class ResilientEmbedder implements Embedder {
  readonly #breaker: CircuitBreaker;

  constructor(
    private readonly backend: EmbeddingBackend,
    private readonly options: ResilienceOptions,
  ) {
    this.#breaker = new CircuitBreaker({
      failureThreshold: options.failureThreshold,
      cooldownMs: options.cooldownMs,
      ...(options.now ? { now: options.now } : {}),
    });
  }

  get model(): string {
    return this.backend.model;
  }

  /** Ollama's and OpenAI's embedding models embed meaning: recall's answers are `semantic`. */
  readonly embedsMeaning = true;

  get maxBatch(): number {
    return this.backend.maxBatch;
  }

  get provider(): string {
    return this.backend.provider;
  }

  /** Whether the circuit is open (the provider is being left alone). */
  get circuitOpen(): boolean {
    return this.#breaker.isOpen;
  }

  /**
   * Asks the provider for one vector, once, past the circuit: it answers, and the circuit
   * closes; it cannot be reached (or times out, or fails as an outage does), and the circuit
   * opens for a full cooldown, so writes meanwhile are stored without a vector at once instead of
   * each waiting out its own attempts. A probe repeated more often than the cooldown keeps the
   * writes off a provider that stays down. An answer that is no outage (a wrong key, an unknown
   * model) leaves the circuit as it is: the writes' own requests report those.
   */
  async probe(): Promise<EmbeddingProbe> {
    try {
      await this.backend.embedBatch(['memsvc reachability probe'], 'document', AbortSignal.timeout(this.options.timeoutMs));
      this.#breaker.succeeded();
      return { reachable: true };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof EmbeddingRequestError && error.retryable) {
        this.#breaker.trip();
        return { reachable: false, error: message };
      }
      // It answered: reachable, though something else is wrong (the writes' requests will say what).
      return { reachable: true, error: message };
    }
  }

  async embed(texts: readonly string[], purpose: EmbeddingPurpose = 'document'): Promise<readonly (readonly number[])[] | undefined> {
    if (texts.length === 0) return [];
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += this.backend.maxBatch) {
      const batch = await this.embedBatch(texts.slice(start, start + this.backend.maxBatch), purpose);
      if (!batch) return undefined;
      vectors.push(...batch);
    }
    return vectors;
  }

  private async embedBatch(texts: readonly string[], purpose: EmbeddingPurpose): Promise<number[][] | undefined> {
    const started = performance.now();
    const report = (status: EmbeddingRequestEvent['status'], attempts: number, error?: string) =>
      this.options.onRequest?.({
        provider: this.backend.provider,
        status,
        texts: texts.length,
        seconds: (performance.now() - started) / 1000,
        attempts,
        ...(error ? { error } : {}),
      });

    if (!this.#breaker.allow()) {
      report('short_circuited', 0);
      return undefined;
    }
    let lastError = '';
    let attempts = 0;
    for (let attempt = 1; attempt <= this.options.maxAttempts; attempt++) {
      attempts = attempt;
      try {
        const vectors = await this.backend.embedBatch(texts, purpose, AbortSignal.timeout(this.options.timeoutMs));
        this.checkDimensions(vectors);
        this.#breaker.succeeded();
        report('success', attempt);
        return vectors;
      } catch (error) {
        if (!(error instanceof EmbeddingRequestError)) {
          // A wrong-size vector (or a bug): the provider answered, so the circuit stays closed.
          this.#breaker.succeeded();
          throw error;
        }
        lastError = error.message;
        if (!error.retryable || attempt === this.options.maxAttempts) break;
        await this.sleep(this.options.baseDelayMs * 4 ** (attempt - 1) * (0.5 + Math.random()));
      }
    }
    this.#breaker.failed();
    report('error', attempts, lastError);
    return undefined;
  }

  private checkDimensions(vectors: readonly number[][]): void {
    const expected = this.options.dimensions ?? vectors[0]?.length;
    const wrong = vectors.find((vector) => vector.length !== expected || vector.length === 0);
    if (wrong) {
      throw new MemsvcError(
        'DIMENSION_MISMATCH',
        `${this.backend.provider} model ${this.backend.model} returned a ${wrong.length}-dimensional vector where ${expected} were expected; check EMBEDDING_MODEL and VECTOR_DIMENSIONS (a model change needs a reindex with --recreate --regenerate)`,
        { expected, received: wrong.length, model: this.backend.model },
      );
    }
  }

  private sleep(ms: number): Promise<void> {
    return this.options.sleep ? this.options.sleep(ms) : new Promise((resolve) => setTimeout(resolve, ms));
  }
}
