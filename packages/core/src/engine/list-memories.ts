import type { MemoryMarker, MemoryTier } from '../domain/memory.js';
import { checkScope, checkTags } from '../domain/memory-limits.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { MemoryPage } from '../ports/memory-store.js';
import { type AsOfGaps, listAsOf } from './as-of-reads.js';
import type { CallContext, EngineParts } from './engine-parts.js';

export interface ListInput {
  readonly tier?: MemoryTier;
  readonly scope?: string;
  readonly tags?: readonly string[];
  readonly limit: number;
  readonly cursor?: string;
  readonly includeSuperseded?: boolean;
  readonly marker?: MemoryMarker;
  readonly createdFrom?: Date;
  readonly createdTo?: Date;
  /** Deleted (restorable) memories only, newest first; not with `asOf`. */
  readonly onlyDeleted?: boolean;
  /** List as the memories were at this moment (as-of-reads.ts). */
  readonly asOf?: Date;
}

/** A page of memories, newest first, across both tiers unless one is asked for; with `asOf`, as they were then. */
export async function listMemories(
  parts: EngineParts,
  context: CallContext,
  input: ListInput,
): Promise<MemoryPage & { readonly asOf?: AsOfGaps }> {
  if (input.asOf !== undefined && input.onlyDeleted) {
    throw new MemsvcError('INVALID_INPUT', 'onlyDeleted lists what can be restored now, so it cannot be combined with asOf', {
      field: 'onlyDeleted',
    });
  }
  if (input.asOf !== undefined) {
    return listAsOf(parts, context.tenant, {
      asOf: input.asOf,
      limit: input.limit,
      cursor: input.cursor,
      filters: {
        tier: input.tier,
        scope: input.scope === undefined ? undefined : checkScope(input.scope),
        tags: input.tags && input.tags.length > 0 ? checkTags(input.tags) : undefined,
        includeSuperseded: input.includeSuperseded,
        marker: input.marker,
        createdFrom: input.createdFrom,
        createdTo: input.createdTo,
      },
    });
  }
  return parts.store.list(context.tenant, {
    limit: input.limit,
    ...(input.tier ? { tier: input.tier } : {}),
    ...(input.scope !== undefined ? { scope: checkScope(input.scope) ?? undefined } : {}),
    ...(input.tags && input.tags.length > 0 ? { tags: checkTags(input.tags) } : {}),
    ...(input.cursor ? { cursor: input.cursor } : {}),
    ...(input.includeSuperseded ? { includeSuperseded: true } : {}),
    ...(input.onlyDeleted ? { onlyDeleted: true } : {}),
    ...(input.marker ? { marker: input.marker } : {}),
    ...(input.createdFrom ? { createdFrom: input.createdFrom } : {}),
    ...(input.createdTo ? { createdTo: input.createdTo } : {}),
  });
}
