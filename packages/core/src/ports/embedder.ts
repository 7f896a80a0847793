/** Vectors for texts, from whichever provider is configured. */
export interface Embedder {
  /** The model id stored with each vector; undefined when embeddings are disabled. */
  readonly model: string | undefined;
  /**
   * One vector per text, in order. Returns undefined when no vector can be had right now
   * (provider disabled, unreachable, or its circuit open): writes then go ahead without one
   * (spec §1.10). Throws only for a bug-class problem, such as a vector of the wrong size.
   */
  embed(texts: readonly string[]): Promise<readonly (readonly number[])[] | undefined>;
}
