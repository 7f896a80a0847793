import type { MemoryMarker, MemoryTier } from '../domain/memory.js';
import { checkScope, checkTags } from '../domain/memory-limits.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { MemoryPage } from '../ports/memory-store.js';
import { type AsOfGaps, listAsOf } from './as-of-reads.js';
import type { CallContext, EngineParts } from './engine-parts.js';
import { type SpaceName, selectedSpaces } from './shared-spaces.js';

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
  /** List this space shared with the caller instead of its own memories (its pages are the owner's). */
  readonly shared?: SpaceName;
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
  if (input.asOf !== undefined && input.shared !== undefined) {
    throw new MemsvcError('INVALID_INPUT', 'a shared space is listed as it is now: asOf reads only your own memories', { field: 'asOf' });
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
  const space = input.shared === undefined ? undefined : (await selectedSpaces(parts, context, [input.shared]))[0];
  if (space && input.asOf === undefined && (input.onlyDeleted || (input.scope !== undefined && input.scope !== space.space))) {
    throw new MemsvcError('INVALID_INPUT', 'a shared space is listed live and whole: onlyDeleted and another scope do not apply', {
      field: 'shared',
    });
  }
  const scope = space ? space.space : input.scope === undefined ? undefined : (checkScope(input.scope) ?? undefined);
  return parts.store.list(space ? space.owner : context.tenant, {
    limit: input.limit,
    ...(input.tier ? { tier: input.tier } : {}),
    ...(scope !== undefined ? { scope } : {}),
    ...(input.tags && input.tags.length > 0 ? { tags: checkTags(input.tags) } : {}),
    ...(input.cursor ? { cursor: input.cursor } : {}),
    ...(input.includeSuperseded ? { includeSuperseded: true } : {}),
    ...(input.onlyDeleted ? { onlyDeleted: true } : {}),
    ...(input.marker ? { marker: input.marker } : {}),
    ...(input.createdFrom ? { createdFrom: input.createdFrom } : {}),
    ...(input.createdTo ? { createdTo: input.createdTo } : {}),
  });
}
