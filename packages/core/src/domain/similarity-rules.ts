import type { ContradictionPolicy } from './contradiction-policy.js';
import { detectFactChange, type FactChangeReason, factShape } from './fact-change.js';
import { relatedText } from './fact-topics.js';
import type { MemoryRecord, MemoryTier } from './memory.js';
import { type RelatedFinding, relatedMemories } from './related-memories.js';
import { isConversationMemory } from './search-context.js';
import type { FactChangeFinding, Neighbour, WriteDecision } from './write-decision.js';
import { comparedTiers, type PromotionPlan, planPromotion, planWrite, type WritePlan } from './write-plan.js';

/** The similarity bands of spec §3.2, from configuration. */
export interface SimilarityRules {
  readonly duplicateThreshold: number;
  readonly contradictionThreshold: number;
  readonly contradictionThresholdMax: number;
  readonly contradictionPolicy: ContradictionPolicy;
}

/** What a store found for a write, inside the transaction that will perform it. */
export interface WriteCandidates {
  /** A live memory with the same normalised content (exact duplicate), found without vectors. */
  readonly exact: MemoryRecord | undefined;
  /** Nearest live, unsuperseded memories by cosine similarity, most similar first. */
  readonly neighbours: readonly Neighbour[];
  /**
   * Live, unsuperseded, not yet replaced memories of the same tenant and scope that share the
   * most words with the new content (lexical neighbours, bounded): where a changed fact is found
   * when the embedder does not put the two in the contradiction band.
   */
  readonly related?: readonly MemoryRecord[];
}

/**
 * Classifies a write by spec §3.2, band edges exactly as written:
 * - R-DUP-EXACT: identical normalised content collapses, with or without vectors;
 * - R-DUP-1: similarity ≥ MEMORY_DUPLICATE_THRESHOLD collapses into the most similar row;
 * - R-CONTRA-1: similarity in [MEMORY_CONTRADICTION_THRESHOLD, MEMORY_CONTRADICTION_THRESHOLD_MAX)
 *   marks a contradiction (and is never also a duplicate);
 * - anything else is a plain insert.
 */
export function decideWrite(candidates: WriteCandidates, rules: SimilarityRules, content?: string): WriteDecision {
  if (candidates.exact) return { kind: 'collapse', into: candidates.exact, similarity: 1, exact: true };
  const best = candidates.neighbours[0];
  if (best && best.similarity >= rules.duplicateThreshold) {
    return { kind: 'collapse', into: best.memory, similarity: best.similarity, exact: false };
  }
  const contradictions = candidates.neighbours.filter(
    (neighbour) =>
      neighbour.similarity >= rules.contradictionThreshold &&
      neighbour.similarity < rules.contradictionThresholdMax &&
      neighbour.similarity < rules.duplicateThreshold,
  );
  const changes = content === undefined ? [] : factChanges(candidates, content, new Set(contradictions.map((c) => c.memory.id)));
  const related =
    content === undefined
      ? []
      : relatedMemories(
          content,
          { changes: changes.map((change) => change.memory), contradictions: contradictions.map((neighbour) => neighbour.memory) },
          comparable(candidates),
        );
  return { kind: 'insert', contradictions, policy: rules.contradictionPolicy, changes, related };
}

/** What an edit's new content may change (R-FACT-RELATED), as a write of that content would list it. */
export interface EditFindings {
  readonly related: readonly RelatedFinding[];
  /** The related memories whose fact the content changes, with the values it replaces. */
  readonly changes: readonly FactChangeFinding[];
}

/**
 * R-FACT-RELATED on an edit: the `related` a write of the edited memory's new `content` would
 * return (decideWrite), from the candidates of the memory as edited. An edit never collapses, so
 * a memory the new content duplicates (exact, or at or above the duplicate threshold) is left
 * out rather than listed: it says the same, it changes nothing. Nothing is marked: the caller
 * reads the findings and passes `supersedes`.
 */
export function editFindings(candidates: WriteCandidates, rules: SimilarityRules, content: string): EditFindings {
  const duplicates = new Set<string>(
    candidates.neighbours.filter((neighbour) => neighbour.similarity >= rules.duplicateThreshold).map((neighbour) => neighbour.memory.id),
  );
  if (candidates.exact) duplicates.add(candidates.exact.id);
  const distinct: WriteCandidates = {
    exact: undefined,
    neighbours: candidates.neighbours.filter((neighbour) => !duplicates.has(neighbour.memory.id)),
    related: (candidates.related ?? []).filter((memory) => !duplicates.has(memory.id)),
  };
  const decision = decideWrite(distinct, rules, content);
  return decision.kind === 'insert' ? { related: decision.related, changes: decision.changes } : { related: [], changes: [] };
}

/**
 * R-FACT-WRITE: the candidates (vector and lexical neighbours) whose fact `content` changes, by
 * detectFactChange, once each. A memory already contradicted in the band keeps that treatment
 * only, and one already replaced is left as it is.
 */
function factChanges(candidates: WriteCandidates, content: string, contradicted: ReadonlySet<string>): FactChangeFinding[] {
  const seen = new Set<string>(contradicted);
  const findings: FactChangeFinding[] = [];
  // The new content is read once and compared with every candidate.
  const newer = factShape(content);
  for (const memory of [...candidates.neighbours.map((n) => n.memory), ...(candidates.related ?? [])]) {
    if (seen.has(memory.id) || memory.replacedBy || memory.supersededBy || isConversationMemory(memory)) continue;
    seen.add(memory.id);
    const change = detectFactChange(memory.content, newer);
    if (change) findings.push({ memory, reason: change.reason, replacedValues: change.replacedValues });
  }
  return findings;
}

/** The candidates a changed fact may be among: vector neighbours (most similar first), then lexical ones; standing facts, current. */
function comparable(candidates: WriteCandidates): MemoryRecord[] {
  return [...candidates.neighbours.map((n) => n.memory), ...(candidates.related ?? [])].filter(
    (memory) => !memory.replacedBy && !memory.supersededBy && !isConversationMemory(memory),
  );
}

/** The write rules as a store applies them: what to compare a write with, the plan, and where a plan can start to matter. */
export interface WriteRules {
  decide(candidates: WriteCandidates): WriteDecision;
  /** The plan of a new write: collapse, or insert with the effects on the rows it contradicts. */
  plan(candidates: WriteCandidates): WritePlan;
  /** The plan of promoting `memory` to long-term, given its long-term candidates. */
  planPromotion(memory: Pick<MemoryRecord, 'tier'>, candidates: WriteCandidates): PromotionPlan;
  /** The tiers a write (or a promotion) is compared with. */
  comparedTiers(write: { readonly tier: MemoryTier; readonly promotion?: boolean }): readonly MemoryTier[];
  /**
   * With no exact match and every neighbour below this similarity, the decision is a plain
   * insert: a store may then insert in the same statement that finds the candidates.
   */
  readonly plainInsertBelow: number;
  /** Whether the plan looks for changed facts among `related` candidates (a store need not find them otherwise). */
  readonly findsFactChanges: boolean;
  /** The text whose words find the lexical neighbours: the content and the words of its topics (fact-topics.ts). */
  readonly relatedText: string | undefined;
}

/**
 * decideWrite and the plans bound to one configuration, with the lowest similarity any band
 * starts at. With the new memory's `content`, the plan also marks the memories it changes.
 */
export function writeRules(rules: SimilarityRules, write: { readonly content?: string } = {}): WriteRules {
  const decide = (candidates: WriteCandidates) => decideWrite(candidates, rules, write.content);
  return {
    decide,
    plan: (candidates) => planWrite(decide(candidates)),
    planPromotion: (memory, candidates) => planPromotion(memory, decide(candidates)),
    comparedTiers,
    plainInsertBelow: Math.min(rules.duplicateThreshold, rules.contradictionThreshold),
    findsFactChanges: write.content !== undefined,
    relatedText: write.content === undefined ? undefined : relatedText(write.content),
  };
}
