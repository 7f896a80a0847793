import type { Embedder } from '@memsvc/core';

/** Width of the local embedder's vectors. */
export const LOCAL_DIMENSIONS = 384;
export const LOCAL_MODEL = 'memsvc-local-v1';

const WORD_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.5;
const TRIGRAM_WEIGHT = 0.3;

/**
 * The `local` provider: a deterministic embedding by feature hashing — the same text gives the
 * same vector in every process on every machine, with no model to download. Features are the
 * words (Unicode letters and digits, case-folded), adjacent word pairs, and character trigrams
 * of each word (so "deploy" and "deploys" overlap); each is hashed (FNV-1a) to a signed
 * coordinate, and the vector is L2-normalised, so cosine similarity measures shared wording.
 * It is lexical, not semantic: paraphrases with different words score low.
 */
export class LocalEmbedder implements Embedder {
  readonly model = LOCAL_MODEL;
  /** Hashed words and n-grams, no meaning: recall's answers have a vector but are not `semantic`. */
  readonly embedsMeaning = false;

  constructor(readonly dimensions = LOCAL_DIMENSIONS) {}

  async embed(texts: readonly string[]): Promise<readonly (readonly number[])[]> {
    return texts.map((text) => this.vectorOf(text));
  }

  /** The vector of one text, synchronously. */
  vectorOf(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    const words =
      text
        .normalize('NFKC')
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? [];
    const add = (feature: string, weight: number) => {
      const hash = fnv1a(feature);
      const index = hash % this.dimensions;
      vector[index] = (vector[index] ?? 0) + (hash & 0x80000000 ? -weight : weight);
    };
    for (const [position, word] of words.entries()) {
      add(`w:${word}`, WORD_WEIGHT);
      const next = words[position + 1];
      if (next !== undefined) add(`b:${word} ${next}`, BIGRAM_WEIGHT);
      const padded = `^${word}$`;
      for (let i = 0; i + 3 <= padded.length; i++) add(`c:${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
    }
    // Text with no letters or digits (emoji, punctuation) still gets a stable, non-zero vector.
    if (words.length === 0) add(`raw:${text.trim()}`, WORD_WEIGHT);
    const norm = Math.hypot(...vector);
    return norm === 0 ? vector : vector.map((value) => value / norm);
  }
}

/** 32-bit FNV-1a over UTF-16 code units: simple, fast and identical everywhere. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
