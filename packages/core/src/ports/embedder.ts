/** Vectors for texts, from whichever provider is configured. */
export interface Embedder {
  /** The model id stored with each vector; undefined when embeddings are disabled. */
  readonly model: string | undefined;
  /** Most texts the provider takes in one request; bulk callers (reindex) chunk by it. Unlimited when absent. */
  readonly maxBatch?: number;
  /**
   * True for a model that embeds meaning (ollama's, openai's): only then does recall call a
   * vector-ranked answer `semantic`. A hashing embedder (local: words and character n-grams,
   * no meaning) leaves it unset; so does one of your own until you say so.
   */
  readonly embedsMeaning?: boolean;
  /**
   * One vector per text, in order. Returns undefined when no vector can be had right now
   * (provider disabled, unreachable, or its circuit open): writes then go ahead without one
   * (spec §1.10). Throws only for a bug-class problem, such as a vector of the wrong size.
   * `purpose` says whether the texts are memories (`document`, the default) or a search query;
   * models trained with task prefixes get the right one.
   */
  embed(texts: readonly string[], purpose?: 'document' | 'query'): Promise<readonly (readonly number[])[] | undefined>;
}
