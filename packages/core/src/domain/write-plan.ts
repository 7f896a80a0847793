import type { ContradictionPolicy } from './contradiction-policy.js';
import type { MemoryRecord, MemoryTier } from './memory.js';
import type { FactChangeFinding, Neighbour, WriteDecision } from './write-decision.js';

/** A link a contradiction records, between the new (or promoted) memory and an existing one. */
export interface PlannedLink {
  readonly from: 'new' | 'existing';
  readonly rel: 'contradicts' | 'supersedes' | 'superseded-by';
}

/** What a write does to one existing memory it contradicts (spec §3.2 rule 2). */
export interface ContradictionEffect {
  readonly neighbour: Neighbour;
  /** `contradicted`: the row is marked and stays visible. `superseded`: it is hidden from default reads behind the new memory. */
  readonly mark: 'contradicted' | 'superseded';
  readonly auditAction: 'contradiction-flag' | 'supersede';
  /** Both directions, so either memory leads to the other. */
  readonly links: readonly PlannedLink[];
}

/**
 * R-FACT-WRITE: what a write does to an existing memory whose fact it changes. The older memory
 * stays visible, marked `replacedBy` the new one (a visible "probably outdated" marker, not a
 * supersession that hides it: the detection reads words, and a wrong guess must cost a label, not
 * a memory), audited as `fact-change`, linked both ways.
 */
export interface ReplacementEffect {
  readonly finding: FactChangeFinding;
  readonly auditAction: 'fact-change';
  readonly links: readonly PlannedLink[];
}

/** What a rule-checked write does, decided by core; a store applies it in its transaction. */
export type WritePlan =
  /** R-DUP-*: nothing is stored; the write reports the existing memory. */
  | { readonly kind: 'collapse'; readonly decision: Extract<WriteDecision, { kind: 'collapse' }> }
  /** Store the memory (marked contradicted when `flagNew`) and apply the effects to the rows it contradicts. */
  | {
      readonly kind: 'insert';
      readonly decision: Extract<WriteDecision, { kind: 'insert' }>;
      readonly flagNew: boolean;
      readonly effects: readonly ContradictionEffect[];
      /** Applied after the insert; they never change the new row, so a store's one-statement insert may stand. */
      readonly replacements: readonly ReplacementEffect[];
    };

/** What a promotion does (spec §3.2 rule 4), decided by core. */
export type PromotionPlan =
  /** The memory is long-term already: nothing changes. */
  | { readonly kind: 'unchanged'; readonly decision: Extract<WriteDecision, { kind: 'insert' }> }
  /** A duplicate of a long-term memory: the short-term row is deleted (audited as `promote-collapse`) and the promotion reports the existing one. */
  | {
      readonly kind: 'collapse';
      readonly decision: Extract<WriteDecision, { kind: 'collapse' }>;
      readonly auditAction: 'promote-collapse';
    }
  /** The row becomes long-term in place (audited as `promote`), keeping its id, then the contradictions apply. */
  | {
      readonly kind: 'promote';
      readonly decision: Extract<WriteDecision, { kind: 'insert' }>;
      readonly auditAction: 'promote';
      readonly flagPromoted: boolean;
      readonly effects: readonly ContradictionEffect[];
      /** The older long-term memories whose fact the promoted one changes (R-FACT-WRITE), as on a write. */
      readonly replacements: readonly ReplacementEffect[];
    };

const LINKS: Readonly<Record<ContradictionPolicy, readonly PlannedLink[]>> = Object.freeze({
  flag: [
    { from: 'new', rel: 'contradicts' },
    { from: 'existing', rel: 'contradicts' },
  ],
  supersede: [
    { from: 'new', rel: 'supersedes' },
    { from: 'existing', rel: 'superseded-by' },
  ],
});

const REPLACEMENT_LINKS: readonly PlannedLink[] = Object.freeze([
  { from: 'new', rel: 'supersedes' },
  { from: 'existing', rel: 'superseded-by' },
]);

/**
 * R-CONTRA-FLAG / R-CONTRA-SUPERSEDE: policy `flag` marks each contradicted row and the new one
 * contradicted (both stay visible) and links them `contradicts` both ways; `supersede` hides
 * each contradicted row behind the new one (`supersedes` / `superseded-by`), latest wins.
 */
function contradictionEffects(decision: Extract<WriteDecision, { kind: 'insert' }>): readonly ContradictionEffect[] {
  const flag = decision.policy === 'flag';
  return decision.contradictions.map((neighbour) => ({
    neighbour,
    mark: flag ? 'contradicted' : 'superseded',
    auditAction: flag ? 'contradiction-flag' : 'supersede',
    links: LINKS[decision.policy],
  }));
}

/** The plan of a new write from its decision. */
export function planWrite(decision: WriteDecision): WritePlan {
  if (decision.kind === 'collapse') return { kind: 'collapse', decision };
  const effects = contradictionEffects(decision);
  return {
    kind: 'insert',
    decision,
    flagNew: decision.policy === 'flag' && effects.length > 0,
    effects,
    replacements: replacementEffects(decision),
  };
}

function replacementEffects(decision: Extract<WriteDecision, { kind: 'insert' }>): readonly ReplacementEffect[] {
  return decision.changes.map((finding) => ({ finding, auditAction: 'fact-change' as const, links: REPLACEMENT_LINKS }));
}

/** The plan of a promotion of `memory` from the decision its long-term candidates gave. */
export function planPromotion(memory: Pick<MemoryRecord, 'tier'>, decision: WriteDecision): PromotionPlan {
  if (memory.tier === 'ltm')
    return { kind: 'unchanged', decision: { kind: 'insert', contradictions: [], policy: 'flag', changes: [], related: [] } };
  if (decision.kind === 'collapse') return { kind: 'collapse', decision, auditAction: 'promote-collapse' };
  const effects = contradictionEffects(decision);
  const flagPromoted = decision.policy === 'flag' && effects.length > 0;
  return { kind: 'promote', decision, auditAction: 'promote', flagPromoted, effects, replacements: replacementEffects(decision) };
}

/**
 * R-WRITE-TIERS: which tiers a write is compared with. A short-term note may collapse into a
 * long-term fact; a long-term write, and a promotion, compare with long-term rows only, so a
 * passing note never swallows a lasting one.
 */
export function comparedTiers(write: { readonly tier: MemoryTier; readonly promotion?: boolean }): readonly MemoryTier[] {
  return write.tier === 'stm' && !write.promotion ? ['stm', 'ltm'] : ['ltm'];
}
