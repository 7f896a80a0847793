import type { Embedder } from '../ports/embedder.js';

/**
 * An Embedder for tests: texts listed in `vectors` get exactly that vector, others get
 * `fallback(text)` (or none). `available = false` simulates a provider that is down.
 */
export class StaticEmbedder implements Embedder {
  available = true;
  calls = 0;

  constructor(
    private readonly vectors: Readonly<Record<string, readonly number[]>>,
    readonly model: string | undefined = 'static-test',
    private readonly fallback?: (text: string) => readonly number[],
  ) {}

  async embed(texts: readonly string[]): Promise<readonly (readonly number[])[] | undefined> {
    this.calls++;
    if (!this.available || this.model === undefined) return undefined;
    const vectors = texts.map((text) => this.vectors[text] ?? this.fallback?.(text));
    return vectors.every((vector) => vector !== undefined) ? (vectors as (readonly number[])[]) : undefined;
  }
}
