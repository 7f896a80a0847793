/**
 * A vector as pgvector stores it: single precision. Rounding on the way in keeps similarities
 * where the SQL stores put them, so a test written against one sits on the same side of a band
 * edge on the other.
 */
export function toStoredVector(vector: readonly number[]): readonly number[] {
  return Object.freeze(vector.map(Math.fround));
}

/** Cosine similarity; undefined when either vector has no direction (all zeros). */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number | undefined {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  if (normA === 0 || normB === 0) return undefined;
  return dot / Math.sqrt(normA * normB);
}
