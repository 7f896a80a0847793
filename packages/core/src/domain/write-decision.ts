import type { ContradictionPolicy } from './contradiction-policy.js';
import type { FactChangeReason } from './fact-change.js';
import type { MemoryRecord } from './memory.js';
import type { RelatedFinding } from './related-memories.js';

/** A live memory of the same tenant and scope, and its cosine similarity to the new content. */
export interface Neighbour {
  readonly memory: MemoryRecord;
  readonly similarity: number;
}

/** R-FACT-WRITE: an existing memory whose fact the new one changes. */
export interface FactChangeFinding {
  readonly memory: MemoryRecord;
  readonly reason: FactChangeReason;
  /** What the older memory said that the new one replaces (stored text: untrusted). */
  readonly replacedValues: readonly string[];
}

/** How a write lands (spec §3.2): decided once, by the engine, from what the store found. */
export type WriteDecision =
  /** R-DUP: collapse into an existing row; nothing new is stored. */
  | { readonly kind: 'collapse'; readonly into: MemoryRecord; readonly similarity: number; readonly exact: boolean }
  /** Store the memory; contradicted rows get the policy's treatment. */
  | {
      readonly kind: 'insert';
      readonly contradictions: readonly Neighbour[];
      readonly policy: ContradictionPolicy;
      /** Existing memories whose fact the new one changes: marked replaced, never hidden. */
      readonly changes: readonly FactChangeFinding[];
      /**
       * R-FACT-RELATED: what the caller is told the write may change (related-memories.ts) — the
       * changes and contradictions, then candidates a cue links to it; at most MAX_RELATED.
       */
      readonly related: readonly RelatedFinding[];
    };
