import type { MemoryRecord, MemoryTier } from '../domain/memory.js';
import type { WriteCandidates } from '../domain/similarity-rules.js';
import type { SupersessionEffect } from '../domain/supersession-plan.js';
import type { Neighbour } from '../domain/write-decision.js';
import type { ContradictionEffect, ReplacementEffect } from '../domain/write-plan.js';
import type { IdGenerator } from '../ports/id-generator.js';
import type { Actor } from '../ports/memory-store.js';
import { cosineSimilarity } from './cosine-similarity.js';
import type { InMemoryTenant } from './in-memory-tenant.js';
import { inScope, isLiveAt } from './memory-visibility.js';
import { type StoredMemory, toRecord } from './stored-memory.js';

/** How many nearest neighbours a write compares itself with (as the SQL stores do). */
export const NEIGHBOUR_LIMIT = 5;
/** How many lexical neighbours a write is checked against for a changed fact (as the SQL stores do). */
export const RELATED_LIMIT = 8;

/** What a write (or a promotion) is compared with. */
export interface CandidateQuery {
  readonly scope: string | null;
  readonly contentKey: string;
  readonly vector: readonly number[] | null;
  readonly tiers: readonly MemoryTier[];
  readonly now: Date;
  readonly excludeId?: string;
  /** The new content, when the rules look for changed facts: its lexical neighbours are found too. */
  readonly content?: string;
}

/**
 * The candidates of a write: live, unsuperseded memories of the tenant in the same scope among
 * `tiers`; the oldest exact-content match, and the nearest neighbours when there is a vector.
 */
export function findWriteCandidates(tenant: InMemoryTenant, query: CandidateQuery): WriteCandidates {
  const base = [...tenant.rows.values()].filter(
    (row) =>
      inScope(row, query.scope) &&
      isLiveAt(row, query.now) &&
      row.supersededBy === null &&
      query.tiers.includes(row.tier) &&
      row.id !== query.excludeId,
  );
  const exact = base.filter((row) => row.contentKey === query.contentKey).sort((a, b) => (a.id < b.id ? -1 : 1))[0];
  const { vector } = query;
  const neighbours: Neighbour[] = [];
  if (vector) {
    for (const row of base) {
      const similarity = row.vector ? cosineSimilarity(row.vector, vector) : undefined;
      if (similarity !== undefined) neighbours.push({ memory: toRecord(row), similarity });
    }
    neighbours.sort((a, b) => b.similarity - a.similarity);
    neighbours.splice(NEIGHBOUR_LIMIT);
  }
  const related = query.content === undefined ? [] : lexicalNeighbours(base, query.content);
  return { exact: exact ? toRecord(exact) : undefined, neighbours, related };
}

const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);

/** The not-yet-replaced rows sharing the most words with `content`, newest first among equals. */
function lexicalNeighbours(rows: readonly StoredMemory[], content: string): MemoryRecord[] {
  const words = wordsOf(content);
  return rows
    .filter((row) => !row.replacedBy)
    .map((row) => ({ row, shared: [...wordsOf(row.content)].filter((word) => words.has(word)).length }))
    .filter(({ shared }) => shared > 0)
    .sort((a, b) => b.shared - a.shared || (a.row.id < b.row.id ? 1 : -1))
    .slice(0, RELATED_LIMIT)
    .map(({ row }) => toRecord(row));
}

/**
 * Applies core's replacement effects (R-FACT-WRITE): each older row that is still live, not
 * superseded and not replaced gets `replacedBy` the new memory, an audit entry and the links.
 * Server bookkeeping: no version bump.
 */
export function applyReplacements(
  tenant: InMemoryTenant,
  context: { actor: Actor; ids: IdGenerator; now: Date },
  newer: { readonly id: string },
  effects: readonly ReplacementEffect[],
): MemoryRecord[] {
  const affected: MemoryRecord[] = [];
  for (const effect of effects) {
    const row = tenant.rows.get(effect.finding.memory.id);
    if (!row || row.deletedAt !== null || row.supersededBy !== null || row.replacedBy) continue;
    row.replacedBy = newer.id;
    const after = toRecord(row);
    tenant.writeAudit({
      memoryId: row.id,
      actor: context.actor,
      action: effect.auditAction,
      version: row.version,
      before: effect.finding.memory,
      after: { ...after, relatedMemoryId: newer.id, reason: effect.finding.reason },
      at: context.now,
    });
    for (const link of effect.links) {
      const [source, target] = link.from === 'new' ? [newer.id, row.id] : [row.id, newer.id];
      tenant.addLink({
        id: context.ids.next(),
        sourceMemoryId: source,
        targetMemoryId: target,
        relType: link.rel,
        score: null,
        createdAt: new Date(context.now),
      });
    }
    affected.push(after);
  }
  return affected;
}

/**
 * Applies core's contradiction effects of a write to the rows that still hold (not deleted, not
 * superseded since the candidates were read): each gets the plan's mark, an audit entry with the
 * plan's action, and the plan's links. Marks are server bookkeeping: no version bump.
 */
export function applyContradictionEffects(
  tenant: InMemoryTenant,
  context: { actor: Actor; ids: IdGenerator; now: Date },
  newer: { readonly id: string },
  effects: readonly ContradictionEffect[],
): MemoryRecord[] {
  const affected: { row: StoredMemory; effect: ContradictionEffect }[] = [];
  for (const mark of ['contradicted', 'superseded'] as const) {
    const holding = effects
      .filter((effect) => effect.mark === mark)
      .map((effect) => ({ effect, row: tenant.rows.get(effect.neighbour.memory.id) }))
      .filter((found): found is { effect: ContradictionEffect; row: StoredMemory } =>
        Boolean(found.row && found.row.deletedAt === null && found.row.supersededBy === null),
      )
      .sort((a, b) => (a.row.id < b.row.id ? -1 : 1));
    for (const { effect, row } of holding) {
      if (mark === 'contradicted') row.contradicted = true;
      else row.supersededBy = newer.id;
      affected.push({ row, effect });
    }
  }
  for (const { row, effect } of affected) {
    const after = toRecord(row);
    tenant.writeAudit({
      memoryId: row.id,
      actor: context.actor,
      action: effect.auditAction,
      version: row.version,
      before: effect.neighbour.memory,
      after: { ...after, relatedMemoryId: newer.id, similarity: effect.neighbour.similarity },
      at: context.now,
    });
    for (const link of effect.links) {
      const [source, target] = link.from === 'new' ? [newer.id, row.id] : [row.id, newer.id];
      tenant.addLink({
        id: context.ids.next(),
        sourceMemoryId: source,
        targetMemoryId: target,
        relType: link.rel,
        score: effect.neighbour.similarity,
        createdAt: new Date(context.now),
      });
    }
  }
  return affected.map(({ row }) => toRecord(row));
}

/**
 * The ids of the memories that supersede `id`, transitively (its superseder, that one's, …),
 * as the SQL stores' recursive read finds them; bounded, and safe on a loop.
 */
export function supersessionChain(tenant: InMemoryTenant, id: string): string[] {
  const chain: string[] = [];
  let next = tenant.rows.get(id)?.supersededBy ?? null;
  while (next !== null && !chain.includes(next) && chain.length < SUPERSESSION_CHAIN_LIMIT) {
    chain.push(next);
    next = tenant.rows.get(next)?.supersededBy ?? null;
  }
  return chain;
}

/** How far a supersession chain is followed (as the SQL stores' recursive read). */
export const SUPERSESSION_CHAIN_LIMIT = 100;

/** The rows `ids` names, as records (the plan checks which are live and current). */
export function namedRows(tenant: InMemoryTenant, ids: readonly string[], now: Date): MemoryRecord[] {
  return ids
    .map((id) => tenant.rows.get(id))
    .filter((row): row is StoredMemory => row !== undefined && isLiveAt(row, now))
    .map(toRecord);
}

/**
 * Applies core's supersession effects (a caller's `supersedes`): each named row is superseded by
 * `newer` as a new version, with a `supersede` audit entry and `authored` links both ways.
 */
export function applySupersessionEffects(
  tenant: InMemoryTenant,
  context: { actor: Actor; ids: IdGenerator; now: Date },
  newerId: string,
  effects: readonly SupersessionEffect[],
): MemoryRecord[] {
  const retired: MemoryRecord[] = [];
  for (const effect of [...effects].sort((a, b) => (a.memory.id < b.memory.id ? -1 : 1))) {
    const row = tenant.rows.get(effect.memory.id);
    if (!row) continue;
    const before = toRecord(row);
    row.supersededBy = newerId;
    row.version += 1;
    row.updatedAt = new Date(context.now);
    const after = toRecord(row);
    tenant.writeAudit({
      memoryId: row.id,
      actor: context.actor,
      action: effect.auditAction,
      version: row.version,
      before,
      after: { ...after, relatedMemoryId: newerId },
      at: context.now,
    });
    for (const link of effect.links) {
      const [source, target] = link.from === 'new' ? [newerId, row.id] : [row.id, newerId];
      tenant.addLink({
        id: context.ids.next(),
        sourceMemoryId: source,
        targetMemoryId: target,
        relType: link.rel,
        score: null,
        origin: 'authored',
        createdAt: new Date(context.now),
      });
    }
    retired.push(after);
  }
  return retired;
}
