import { candidatesInside } from '../domain/grant-space-bounds.js';
import type { NewMemory } from '../domain/memory.js';
import type { WriteRules } from '../domain/similarity-rules.js';
import { type SupersessionEffect, type SupersessionRequest, withoutRetired } from '../domain/supersession-plan.js';
import type { TenantId } from '../domain/tenant.js';
import type { WritePlan } from '../domain/write-plan.js';
import type { Actor, MemoryStore, WriteOptions, WriteOutcome } from '../ports/memory-store.js';
import type { NewMemoryUnit } from '../ports/write-unit.js';

/**
 * The rule-checked write of spec §3.2, decided here once for every store: in the store's unit of
 * work (the write lock of the content), the candidates (exact match, nearest neighbours, and the
 * lexical neighbours when the rules look for changed facts), core's decision and plan, then the
 * store applies it — collapse, or insert with the marks, audit actions and links the plan names.
 * A memory the caller retires with `supersedes` is neither the write's duplicate nor its
 * contradiction; it is retired behind what the write resolved to, and a refusal (core's
 * supersession plan throws) leaves nothing written. Under a grant (`options.space`) only memories
 * inside the granted space are candidates or may be retired (grant-space-bounds.ts).
 */
export async function writeMemory(
  store: Pick<MemoryStore, 'writeUnit'>,
  tenant: TenantId,
  memory: NewMemory,
  actor: Actor,
  rules: WriteRules,
  options: WriteOptions = {},
): Promise<WriteOutcome> {
  return store.writeUnit(tenant, actor, memory, (unit) => writeIn(unit, memory, rules, options));
}

async function writeIn(unit: NewMemoryUnit, memory: NewMemory, rules: WriteRules, options: WriteOptions): Promise<WriteOutcome> {
  const { supersede } = options;
  const query = { tiers: rules.comparedTiers({ tier: memory.tier }), related: rules.findsFactChanges, relatedText: rules.relatedText };
  // The fast path: one step finds the candidates and stores the memory when none of them can
  // change the decision; only a write that meets a duplicate or a contradiction takes more.
  const found = unit.insertUnlessRelevant
    ? await unit.insertUnlessRelevant(query, rules.plainInsertBelow)
    : { candidates: await unit.candidates(query), inserted: undefined };
  // Under a grant, nothing outside the granted space is a duplicate, a contradiction or a changed fact.
  const plan = rules.plan(withoutRetired(candidatesInside(found.candidates, options.space), supersede));
  if (found.inserted) {
    if (plan.kind !== 'insert' || plan.effects.length > 0 || plan.flagNew) {
      throw new Error('write rules and plainInsertBelow disagree: a row was inserted that the rules would not insert as it is');
    }
    // Replacements never change the new row, so the one-step insert stands and they follow it.
    const affected = await unit.applyReplacements(found.inserted, plan.replacements);
    const retiring = await supersessionPlan(unit, supersede, found.inserted.id);
    return { memory: found.inserted, decision: plan.decision, affected, ...(await retire(unit, found.inserted.id, retiring)) };
  }
  // The supersession is planned before anything changes: a refused `supersedes` leaves no trace,
  // whether or not the store can roll back.
  const successorId = plan.kind === 'collapse' ? plan.decision.into.id : unit.newId();
  const retiring = await supersessionPlan(unit, supersede, successorId);
  if (plan.kind === 'collapse') {
    return { memory: plan.decision.into, decision: plan.decision, affected: [], ...(await retire(unit, successorId, retiring)) };
  }
  return { ...(await insertPlanned(unit, plan)), ...(await retire(unit, successorId, retiring)) };
}

/** Stores the memory as the plan says and applies its effects on the rows it contradicts or replaces. */
async function insertPlanned(unit: NewMemoryUnit, plan: Extract<WritePlan, { kind: 'insert' }>): Promise<WriteOutcome> {
  const stored = await unit.insert({ contradicted: plan.flagNew });
  const affected = [
    ...(await unit.applyContradictions(stored, plan.effects)),
    ...(await unit.applyReplacements(stored, plan.replacements)),
  ];
  return { memory: stored, decision: plan.decision, affected };
}

/** Core's plan for the caller's `supersedes`, from the named rows as the unit read them; throws on a refusal. */
async function supersessionPlan(
  unit: NewMemoryUnit,
  supersede: SupersessionRequest | undefined,
  successorId: string,
): Promise<readonly SupersessionEffect[] | undefined> {
  if (!supersede) return undefined;
  const inputs = await unit.supersessionInputs(supersede.ids, successorId);
  return supersede.plan(inputs.found, successorId, inputs.successorChain);
}

async function retire(
  unit: NewMemoryUnit,
  successorId: string,
  retiring: readonly SupersessionEffect[] | undefined,
): Promise<{ superseded?: WriteOutcome['superseded'] }> {
  return retiring ? { superseded: await unit.applySupersessions(successorId, retiring) } : {};
}
