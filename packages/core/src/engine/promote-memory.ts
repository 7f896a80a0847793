import { isConversationMemory } from '../domain/search-context.js';
import { type SimilarityRules, writeRules } from '../domain/similarity-rules.js';
import type { TenantId } from '../domain/tenant.js';
import type { Actor, MemoryStore, WriteOutcome } from '../ports/memory-store.js';
import type { PromotionUnit } from '../ports/write-unit.js';

/**
 * The short-term → long-term move of spec §3.2 rule 4, decided here once for every store: in the
 * store's unit of work (the row, then the write lock of its content), the long-term candidates,
 * core's promotion plan, then the store applies it — a duplicate of a long-term memory collapses
 * into it (the short-term row is deleted), otherwise the row becomes long-term in place, keeping
 * its id, and its contradictions are flagged or superseded as on a write, and the older long-term
 * memories whose fact it changes are marked replaced by it (R-FACT-WRITE: a fact noted short-term
 * and kept is as new as when it was noted). NOT_FOUND when there is no live memory with that id.
 */
export async function promoteMemory(
  store: Pick<MemoryStore, 'promotionUnit'>,
  tenant: TenantId,
  id: string,
  actor: Actor,
  similarity: SimilarityRules,
): Promise<WriteOutcome> {
  return store.promotionUnit(tenant, actor, id, (unit) => promoteIn(unit, similarity));
}

async function promoteIn(unit: PromotionUnit, similarity: SimilarityRules): Promise<WriteOutcome> {
  const before = unit.memory;
  // The rules read the promoted memory's words, as a write's do, unless it is a conversation turn.
  const rules = writeRules(similarity, isConversationMemory(before) ? {} : { content: before.content });
  const candidates = await unit.candidates({
    tiers: rules.comparedTiers({ tier: before.tier, promotion: true }),
    related: rules.findsFactChanges,
    relatedText: rules.relatedText,
  });
  const plan = rules.planPromotion(before, candidates);
  if (plan.kind === 'unchanged') return { memory: before, decision: plan.decision, affected: [] };
  if (plan.kind === 'collapse') {
    await unit.collapseInto(plan.decision.into, plan.auditAction);
    return { memory: plan.decision.into, decision: plan.decision, affected: [] };
  }
  const promoted = await unit.toLongTerm(plan.auditAction);
  const affected = [
    ...(await unit.applyContradictions(promoted, plan.effects)),
    ...(await unit.applyReplacements(promoted, plan.replacements)),
  ];
  const memory = plan.flagPromoted ? await unit.markContradicted() : promoted;
  return { memory, decision: plan.decision, affected };
}
