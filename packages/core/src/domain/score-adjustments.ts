/**
 * One step that moved a recall score, as `explain` shows it: which rule, the score before and
 * after. Applying a memory's steps in order to its fused match gives its final score, so a reader
 * can see why a memory was recalled and an evaluation can switch one rule off in its head.
 */
export interface ScoreAdjustment {
  /** The rule: `importance-recency`, `follow-ups`, `reply`, `asking`, `named-speaker`, `replacement`, … */
  readonly name: string;
  readonly before: number;
  readonly after: number;
}

/**
 * Records a step in `adjustments` when it moved the score, and returns the new score: each ranking
 * rule is one call, `score = adjusted(steps, 'rule', score, score * factor)`. A step that changes
 * nothing is left out, so an explanation lists only what mattered.
 */
export function adjusted(adjustments: ScoreAdjustment[], name: string, before: number, after: number): number {
  if (after !== before) adjustments.push({ name, before, after });
  return after;
}
