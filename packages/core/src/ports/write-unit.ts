import type { MemoryRecord, MemoryTier } from '../domain/memory.js';
import type { WriteCandidates } from '../domain/similarity-rules.js';
import type { SupersessionEffect } from '../domain/supersession-plan.js';
import type { ContradictionEffect, ReplacementEffect } from '../domain/write-plan.js';

/**
 * Which candidates a write (or a promotion) is compared with. The content, scope and vector are
 * the unit's own memory's; core says only what the rules need.
 */
export interface WriteCandidateQuery {
  /** The tiers the rules compare with (R-WRITE-TIERS). */
  readonly tiers: readonly MemoryTier[];
  /** Also the lexical neighbours (`related`), where the rules look for changed facts (R-FACT-WRITE). */
  readonly related: boolean;
  /**
   * The text whose words find the lexical neighbours, when `related`: the memory's content and the
   * words of the topics it names (R-FACT-RELATED). The memory's content when absent.
   */
  readonly relatedText?: string | undefined;
}

/** What the optimistic step found, and the memory it stored when nothing stood in the way. */
export interface InsertUnlessRelevantResult {
  readonly candidates: WriteCandidates;
  /** The stored memory (not marked), or undefined when a candidate was relevant and nothing was stored. */
  readonly inserted: MemoryRecord | undefined;
}

/** The named memories of a `supersedes`, as a unit read them, and what the plan needs besides. */
export interface SupersessionInputs {
  /** The named rows of the tenant that are live, locked in the unit. */
  readonly found: readonly MemoryRecord[];
  /** The ids of the memories that supersede the successor, transitively (empty for a new memory). */
  readonly successorChain: readonly string[];
}

/**
 * What every unit of work of a write offers core's write use case (engine/write-memory.ts): the
 * candidates, read under the unit's lock, and the effects of a plan on existing rows. Each apply
 * step checks the plan against the rows as they are under their locks: a row deleted or
 * superseded since the candidates were read is left alone, and is not in what it returns.
 */
export interface CandidateUnit {
  /** The live, unsuperseded memories the unit's memory is compared with (same tenant and scope). */
  candidates(query: WriteCandidateQuery): Promise<WriteCandidates>;

  /** Marks each contradicted row as the effect says (contradicted, or superseded by `newer`), with its audit entry and links. */
  applyContradictions(newer: MemoryRecord, effects: readonly ContradictionEffect[]): Promise<readonly MemoryRecord[]>;

  /** Marks each older row whose fact `newer` changes as replaced by it (R-FACT-WRITE), with its audit entry and links. */
  applyReplacements(newer: MemoryRecord, effects: readonly ReplacementEffect[]): Promise<readonly MemoryRecord[]>;
}

/** What a unit of work offers for a caller's `supersedes` (R-SUPERSEDES-*): core plans, the unit reads and retires. */
export interface SupersessionUnit {
  /** The rows a caller's `supersedes` names, locked in id order, and the chain of `successorId` (for core's supersession plan). */
  supersessionInputs(ids: readonly string[], successorId: string): Promise<SupersessionInputs>;

  /** Retires each named row behind `successorId` as a new version, with its `supersede` audit entry and `authored` links. */
  applySupersessions(successorId: string, effects: readonly SupersessionEffect[]): Promise<readonly MemoryRecord[]>;
}

/**
 * The unit of work of one new memory (MemoryStore.writeUnit): a transaction holding the write
 * lock of its content in its tenant. Core decides; the unit finds, stores and marks.
 */
export interface NewMemoryUnit extends CandidateUnit, SupersessionUnit {
  /**
   * The fast path a store may offer: finds the candidates and, in the same step, stores the
   * memory when none of them can change the decision (no exact match, no neighbour at or above
   * `relevantFrom`, core's WriteRules.plainInsertBelow). Without it, core asks `candidates`
   * and then `insert`. Either way the outcome is the same.
   */
  insertUnlessRelevant?(query: WriteCandidateQuery, relevantFrom: number): Promise<InsertUnlessRelevantResult>;

  /** The id the memory gets when it is stored (asked once a plan stores it, or retires behind it). */
  newId(): string;

  /** Stores the memory under `newId()`, with its `create` audit entry; marked contradicted when the plan says so. */
  insert(marks: { readonly contradicted: boolean }): Promise<MemoryRecord>;
}

/**
 * The unit of work of a promotion (MemoryStore.promotionUnit): a transaction holding the
 * short-term row, then the write lock of its content, as a new write of that content takes it.
 */
export interface PromotionUnit extends CandidateUnit {
  /** The memory being promoted, as read under its lock. */
  readonly memory: MemoryRecord;

  /** Makes the memory long-term in place (no expiry, a new version), audited with `auditAction`. */
  toLongTerm(auditAction: string): Promise<MemoryRecord>;

  /** Deletes the short-term row as a duplicate of `into` (a new version), audited with `auditAction`. */
  collapseInto(into: MemoryRecord, auditAction: string): Promise<void>;

  /** Marks the promoted memory contradicted (server bookkeeping: no new version). */
  markContradicted(): Promise<MemoryRecord>;
}

/**
 * The unit of work of an edit (MemoryStore.updateUnit): a transaction holding the memory's row,
 * for core's update use case (optimistic concurrency, then the patch, then any `supersedes`).
 */
export interface UpdateUnit extends SupersessionUnit {
  /** The memory as read under its lock, before the edit. */
  readonly memory: MemoryRecord;

  /** Applies the unit's patch with its audit entry (`action`); a client's edit bumps the version, server bookkeeping does not. */
  apply(change: { readonly action: string; readonly bumpVersion: boolean }): Promise<MemoryRecord>;

  /**
   * The live, unsuperseded memories the memory as edited is compared with (same tenant and scope,
   * its new content and vector), never itself: what an edit of its content may change
   * (R-FACT-RELATED). Asked after `apply`, in the same unit.
   */
  candidates(query: WriteCandidateQuery): Promise<WriteCandidates>;
}
