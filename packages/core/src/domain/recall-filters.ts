import type { MemoryMarker, MemoryTier } from './memory.js';

/** Which memories a recall may return. */
export interface RecallFilters {
  /** One tier; both when undefined. */
  readonly tier?: MemoryTier | undefined;
  /** Exact scope; every scope when undefined, unscoped only when null. */
  readonly scope?: string | null | undefined;
  /** Memories carrying every one of these tags (the same all-of rule as list_memories). */
  readonly tags?: readonly string[] | undefined;
  /** Memories whose metadata contains this object (JSON containment). */
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
  readonly createdFrom?: Date | undefined;
  readonly createdTo?: Date | undefined;
  readonly includeSuperseded?: boolean | undefined;
  /** Only memories carrying this marker (listing; recall never sets it). */
  readonly marker?: MemoryMarker | undefined;
}
