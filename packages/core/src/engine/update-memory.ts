import type { MemoryPatch, MemoryRecord } from '../domain/memory.js';
import type { TenantId } from '../domain/tenant.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { MemoryStore, UpdateOptions } from '../ports/memory-store.js';
import type { UpdateUnit } from '../ports/write-unit.js';

/**
 * An edit of one memory, decided here once for every store: in the store's unit of work (the
 * row, locked), optimistic concurrency (a stale `expectedVersion` is a CONFLICT naming the
 * current version, never a silent overwrite), core's plan for the caller's `supersedes` (made
 * before anything changes, so a refusal leaves the memory as it was), the patch with its audit
 * entry, then the named memories retired behind this one. NOT_FOUND when there is no live memory.
 */
export async function updateMemory(
  store: Pick<MemoryStore, 'updateUnit'>,
  tenant: TenantId,
  id: string,
  patch: MemoryPatch,
  options: UpdateOptions,
): Promise<MemoryRecord> {
  return store.updateUnit(tenant, options.actor, id, patch, (unit) => updateIn(unit, options));
}

async function updateIn(unit: UpdateUnit, options: UpdateOptions): Promise<MemoryRecord> {
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
  return after;
}
