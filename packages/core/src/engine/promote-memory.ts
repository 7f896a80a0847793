import type { WriteRules } from '../domain/similarity-rules.js';
import type { TenantId } from '../domain/tenant.js';
import type { Actor, MemoryStore, WriteOutcome } from '../ports/memory-store.js';
import type { PromotionUnit } from '../ports/write-unit.js';

/**
 * The short-term → long-term move of spec §3.2 rule 4, decided here once for every store: in the
 * store's unit of work (the row, then the write lock of its content), the long-term candidates,
 * core's promotion plan, then the store applies it — a duplicate of a long-term memory collapses
 * into it (the short-term row is deleted), otherwise the row becomes long-term in place, keeping
 * its id, and its contradictions are flagged or superseded as on a write. NOT_FOUND when there is
 * no live memory with that id.
 */
export async function promoteMemory(
  store: Pick<MemoryStore, 'promotionUnit'>,
  tenant: TenantId,
  id: string,
  actor: Actor,
  rules: WriteRules,
): Promise<WriteOutcome> {
  return store.promotionUnit(tenant, actor, id, (unit) => promoteIn(unit, rules));
}

async function promoteIn(unit: PromotionUnit, rules: WriteRules): Promise<WriteOutcome> {
  const before = unit.memory;
  const candidates = await unit.candidates({ tiers: rules.comparedTiers({ tier: before.tier, promotion: true }), related: false });
  const plan = rules.planPromotion(before, candidates);
  if (plan.kind === 'unchanged') return { memory: before, decision: plan.decision, affected: [] };
  if (plan.kind === 'collapse') {
    await unit.collapseInto(plan.decision.into, plan.auditAction);
    return { memory: plan.decision.into, decision: plan.decision, affected: [] };
  }
  const promoted = await unit.toLongTerm(plan.auditAction);
  const affected = await unit.applyContradictions(promoted, plan.effects);
  const memory = plan.flagPromoted ? await unit.markContradicted() : promoted;
  return { memory, decision: plan.decision, affected };
}
