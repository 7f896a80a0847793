import { type CallContext, isMemsvcError, type MemoryEngine, type MemoryRecord } from '@memsvc/core';

/** The memory, deleted or not, or undefined when there is none with this id in the viewer's tenant. */
export async function peekMemory(engine: MemoryEngine, context: CallContext, id: string): Promise<MemoryRecord | undefined> {
  try {
    return await engine.getUncounted(context, id, { includeDeleted: true });
  } catch (error) {
    if (isMemsvcError(error, 'NOT_FOUND')) return undefined;
    throw error;
  }
}
