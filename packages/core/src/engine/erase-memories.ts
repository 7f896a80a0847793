import { checkEraseIds, type ErasureCheck, type ErasureReceipt } from '../domain/erasure.js';
import { isMemsvcError, MemsvcError } from '../errors/memsvc-error.js';
import type { ErasureStore } from '../ports/erasure-store.js';
import type { CallContext, EngineParts } from './engine-parts.js';
import { sharedMemory } from './shared-spaces.js';

/** How many memories one transaction of a whole user's erasure takes. */
export const ERASE_TENANT_BATCH = 500;

/**
 * Erases memories of the caller for good (erasure-store.ts): one call, one transaction, one
 * receipt. Only an owner erases: a memory the caller reaches through a grant is FORBIDDEN (a
 * grantee may delete in a read-write space, restorably, but never erase), and another tenant's
 * id is NOT_FOUND like any unknown one. Nothing changes when any id is refused.
 */
export async function eraseMemories(parts: EngineParts, context: CallContext, ids: readonly string[]): Promise<ErasureReceipt> {
  const checked = checkEraseIds(ids);
  try {
    return await erasureStoreOf(parts).erase(context.tenant, checked, context.actor);
  } catch (error) {
    if (!isMemsvcError(error, 'NOT_FOUND') || typeof error.data.memoryId !== 'string') throw error;
    const shared = await sharedMemory(parts, context, error.data.memoryId, 'read', { includeDeleted: true });
    if (!shared) throw error;
    throw new MemsvcError('FORBIDDEN', `memory ${error.data.memoryId} is ${shared.space.owner}'s: only its owner can erase it`, {
      field: 'memoryIds',
      memoryId: error.data.memoryId,
    });
  }
}

/** Erases every memory of the caller, in batches under one record; a run cut short is finished by the next. */
export function eraseTenant(parts: EngineParts, context: CallContext): Promise<ErasureReceipt> {
  return erasureStoreOf(parts).eraseTenant(context.tenant, context.actor, ERASE_TENANT_BATCH);
}

/** Checks one of the caller's erasures against the database now; NOT_FOUND for an unknown one. */
export async function verifyErasure(parts: EngineParts, context: CallContext, erasureId: string): Promise<ErasureCheck> {
  const check = await erasureStoreOf(parts).check(context.tenant, erasureId);
  if (!check) throw new MemsvcError('NOT_FOUND', `no erasure ${JSON.stringify(erasureId)} of yours is recorded`, { field: 'erasureId' });
  return check;
}

/** ERASED for a memory an erasure took (restore, get): said plainly, with the erasure that took it. */
export async function erasedError(parts: EngineParts, context: CallContext, id: string): Promise<MemsvcError | undefined> {
  const earlier = await parts.erasures.erasureOf(context.tenant, id);
  if (!earlier) return undefined;
  return new MemsvcError('ERASED', `memory ${id} was erased for good at ${earlier.erasedAt.toISOString()}: nothing of it can be restored`, {
    memoryId: id,
    erasureId: earlier.erasureId,
  });
}

function erasureStoreOf(parts: EngineParts): ErasureStore {
  return parts.erasures;
}
