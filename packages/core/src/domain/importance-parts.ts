import { ACCESS_SATURATION, IMPORTANCE_WEIGHTS, type ImportanceInputs, importanceScore } from './importance.js';

/** One weighted component of the importance score. */
export interface ImportanceComponent {
  /** The component itself, in [0, 1]. */
  readonly value: number;
  /** Its weight in IMPORTANCE_WEIGHTS. */
  readonly weight: number;
  /** weight · value: what it adds to the score. */
  readonly contribution: number;
}

/** The importance score taken apart (spec §2.1), for a person asking why a memory ranks where it does. */
export interface ImportanceParts {
  /** The client's importance; 0.5 when none was stated (`stated` false). */
  readonly explicit: ImportanceComponent & { readonly stated: boolean };
  /** Halves every half-life since the memory was last read, or created. */
  readonly recency: ImportanceComponent & { readonly daysSinceTouched: number };
  /** Grows with the number of reads, saturating at ACCESS_SATURATION. */
  readonly access: ImportanceComponent & { readonly reads: number };
  /** What the pinned floor adds above the weighted sum: 0 unless pinned and the sum is below PINNED_FLOOR. */
  readonly pinnedLift: number;
  /** The score, exactly as importanceScore computes it: the contributions plus the pinned lift. */
  readonly score: number;
}

/**
 * The parts of importanceScore with the same weights and inputs, so the dashboard can show what
 * a memory's score is made of. `score` is importanceScore's own result, not a re-computation.
 */
export function importanceParts(inputs: ImportanceInputs, now: Date, halfLifeDays: number): ImportanceParts {
  const explicit = inputs.importance ?? 0.5;
  const lastTouched = Math.max(inputs.createdAt.getTime(), inputs.lastAccessedAt?.getTime() ?? 0);
  const daysSinceTouched = Math.max(0, now.getTime() - lastTouched) / 86_400_000;
  const recency = 0.5 ** (daysSinceTouched / halfLifeDays);
  const reads = Math.max(0, inputs.accessCount);
  const access = Math.min(1, Math.log2(1 + reads) / Math.log2(1 + ACCESS_SATURATION));
  const part = (value: number, weight: number): ImportanceComponent => ({ value, weight, contribution: weight * value });
  const parts = {
    explicit: { ...part(explicit, IMPORTANCE_WEIGHTS.explicit), stated: inputs.importance !== null },
    recency: { ...part(recency, IMPORTANCE_WEIGHTS.recency), daysSinceTouched },
    access: { ...part(access, IMPORTANCE_WEIGHTS.access), reads },
  };
  const sum = parts.explicit.contribution + parts.recency.contribution + parts.access.contribution;
  const score = importanceScore(inputs, now, halfLifeDays);
  return { ...parts, pinnedLift: inputs.pinned ? Math.max(0, score - sum) : 0, score };
}
