import { HNSW_MAX_DIMENSIONS } from '../domain/vector-limits.js';
import { vectorSpaceMismatch } from '../domain/vector-space-mismatch.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { VectorSpace, VectorSpaceInfo } from '../ports/vector-space.js';

/** How an InMemoryVectorSpace starts: fixed already (as `VECTOR_DIMENSIONS` fixes it), or open. */
export interface InMemoryVectorSpaceOptions {
  readonly dimensions?: number | undefined;
  readonly model?: string | null | undefined;
  /** Only reported by `describe`: there is no index to build. */
  readonly hnswM?: number | null | undefined;
  readonly hnswEfConstruction?: number | null | undefined;
}

/**
 * The VectorSpace port in memory, with the PostgreSQL adapter's rules: the dimensionality is
 * fixed by the first `ensure` (or the options), sizes the HNSW index cannot hold are refused, and
 * any other size afterwards is DIMENSION_MISMATCH, never stored.
 */
export class InMemoryVectorSpace implements VectorSpace {
  #info: VectorSpaceInfo | undefined;

  constructor(private readonly options: InMemoryVectorSpaceOptions = {}) {
    if (options.dimensions !== undefined) this.#info = this.fix(options.dimensions, options.model ?? null);
  }

  async describe(): Promise<VectorSpaceInfo | undefined> {
    return this.#info;
  }

  async ensure(dimensions: number, model: string | null): Promise<VectorSpaceInfo> {
    return this.ensureNow(dimensions, model);
  }

  /**
   * `ensure` without a promise, for the memory store: it checks a vector and stores it in one
   * synchronous step, so no other call can fix another size in between.
   */
  ensureNow(dimensions: number, model: string | null): VectorSpaceInfo {
    checkHnswSize(dimensions);
    this.#info ??= this.fix(dimensions, model);
    if (this.#info.dimensions !== dimensions) throw vectorSpaceMismatch(this.#info, dimensions, model);
    return this.#info;
  }

  /** The dimensionality as fixed now, without a promise. */
  get current(): VectorSpaceInfo | undefined {
    return this.#info;
  }

  private fix(dimensions: number, model: string | null): VectorSpaceInfo {
    checkHnswSize(dimensions);
    return Object.freeze({
      dimensions,
      model,
      hnswM: this.options.hnswM ?? null,
      hnswEfConstruction: this.options.hnswEfConstruction ?? null,
    });
  }
}

function checkHnswSize(dimensions: number): void {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > HNSW_MAX_DIMENSIONS) {
    throw new MemsvcError(
      'DIMENSION_MISMATCH',
      `a vector must have 1 to ${HNSW_MAX_DIMENSIONS} dimensions for the HNSW index (got ${dimensions})`,
      {
        dimensions,
      },
    );
  }
}
