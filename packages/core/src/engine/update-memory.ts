import { relatedText } from '../domain/fact-topics.js';
import { candidatesInside } from '../domain/grant-space-bounds.js';
import type { MemoryPatch, MemoryRecord } from '../domain/memory.js';
import { isConversationMemory } from '../domain/search-context.js';
import { type EditFindings, editFindings, type SimilarityRules } from '../domain/similarity-rules.js';
import { withoutRetired } from '../domain/supersession-plan.js';
import type { TenantId } from '../domain/tenant.js';
import { comparedTiers } from '../domain/write-plan.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { MemoryStore, UpdateOptions } from '../ports/memory-store.js';
import type { UpdateUnit } from '../ports/write-unit.js';

/** An edit that changed what a memory says: look for what the new content may change, under these rules. */
export interface FindRelated {
  readonly rules: SimilarityRules;
  /** Under a grant, only memories inside the granted space are listed. */
  readonly space?: string | undefined;
}

/** What an edit did: the memory as it is now, and what its new content may change (none when not asked). */
export interface UpdateOutcome {
  readonly memory: MemoryRecord;
  readonly findings: EditFindings;
}

const NO_FINDINGS: EditFindings = { related: [], changes: [] };

/**
 * An edit of one memory, decided here once for every store: in the store's unit of work (the
 * row, locked), optimistic concurrency (a stale `expectedVersion` is a CONFLICT naming the
 * current version, never a silent overwrite), core's plan for the caller's `supersedes` (made
 * before anything changes, so a refusal leaves the memory as it was), the patch with its audit
 * entry, then the named memories retired behind this one. With `findRelated` (the edit changed
 * the content), what the new content may change, read last in the same unit, so a memory the
 * edit just retired is not among them. NOT_FOUND when there is no live memory.
 */
export async function updateMemory(
  store: Pick<MemoryStore, 'updateUnit'>,
  tenant: TenantId,
  id: string,
  patch: MemoryPatch,
  options: UpdateOptions,
  findRelated?: FindRelated,
): Promise<UpdateOutcome> {
  return store.updateUnit(tenant, options.actor, id, patch, (unit) => updateIn(unit, options, findRelated));
}

async function updateIn(unit: UpdateUnit, options: UpdateOptions, findRelated: FindRelated | undefined): Promise<UpdateOutcome> {
  const { memory } = unit;
  if (options.expectedVersion !== undefined && memory.version !== options.expectedVersion) {
    throw new MemsvcError(
      'CONFLICT',
      `memory ${memory.id} was modified: it is at version ${memory.version}, not ${options.expectedVersion}; read it again and retry`,
      { memoryId: memory.id, currentVersion: memory.version, expectedVersion: options.expectedVersion },
    );
  }
  const { supersede } = options;
  const inputs = supersede ? await unit.supersessionInputs(supersede.ids, memory.id) : undefined;
  const retiring = supersede && inputs ? supersede.plan(inputs.found, memory.id, inputs.successorChain) : undefined;
  const after = await unit.apply({ action: options.action, bumpVersion: options.bumpVersion ?? true });
  if (retiring) await unit.applySupersessions(memory.id, retiring);
  // A conversation turn is what was said then, not a standing fact: as on a write, it changes no fact.
  if (!findRelated || isConversationMemory(after)) return { memory: after, findings: NO_FINDINGS };
  const candidates = await unit.candidates({
    tiers: comparedTiers({ tier: after.tier }),
    related: true,
    relatedText: relatedText(after.content),
  });
  const inside = withoutRetired(candidatesInside(candidates, findRelated.space), supersede);
  return { memory: after, findings: editFindings(inside, findRelated.rules, after.content) };
}
