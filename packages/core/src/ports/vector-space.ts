/** The dimensionality and index settings that the stored vectors share. */
export interface VectorSpaceInfo {
  readonly dimensions: number;
  /** The model that set the dimensionality, when known. */
  readonly model: string | null;
  readonly hnswM: number | null;
  readonly hnswEfConstruction: number | null;
}

/**
 * The one vector column and its HNSW index. Its dimensionality is fixed the first time it is
 * known — from `VECTOR_DIMENSIONS`, the model's documented size, or the first vector — and a
 * vector of any other size is refused with DIMENSION_MISMATCH, never stored.
 */
export interface VectorSpace {
  /** The current settings, or undefined while no dimensionality has been fixed. */
  describe(): Promise<VectorSpaceInfo | undefined>;

  /**
   * Fixes the dimensionality (typing the column and building the index) if it is not fixed yet;
   * otherwise checks that it matches. Safe to call from many processes at once.
   */
  ensure(dimensions: number, model: string | null): Promise<VectorSpaceInfo>;
}
