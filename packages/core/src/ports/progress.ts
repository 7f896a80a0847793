/** How far a long operation has come. */
export interface Progress {
  /** Units done so far (memories, files, clusters): it only grows. */
  readonly done: number;
  /** Units in all, when known in advance. */
  readonly total?: number | undefined;
  /** What the units are, for a person watching ("memories", "files"). */
  readonly message?: string | undefined;
}

/**
 * Told how far a long operation (reindex, promotion, consolidation, import, export) has come,
 * after each batch, so an edge can pass it on (MCP progress notifications). Called synchronously
 * and not awaited: it must return at once and never throw.
 */
export type ProgressListener = (progress: Progress) => void;
