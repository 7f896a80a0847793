import type { MemoryRecord } from '../domain/memory.js';
import { accessAllows, type GrantAccess, type SharedSpace, spaceKey } from '../domain/memory-grants.js';
import { toTenantId } from '../domain/tenant.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { CallContext, EngineParts } from './engine-parts.js';

/**
 * Which shared spaces a read includes besides the caller's own memories: the ones the caller chose
 * to read by default (`default`, what a read without the argument does), every space shared with
 * it (`all`), none, or the ones named.
 */
export type SharedSelection = 'default' | 'all' | 'none' | readonly SpaceName[];

/** A space by its owner and scope. */
export interface SpaceName {
  readonly owner: string;
  readonly space: string;
}

/** Most spaces one read may name. */
export const MAX_NAMED_SPACES = 20;

/**
 * The spaces a read includes, from the grants live at this moment (read on the primary, so a
 * revocation applies to the next call on every replica). A named space no live grant gives the
 * caller is FORBIDDEN, naming the field: a typo must not quietly read less than was asked.
 */
export async function selectedSpaces(
  parts: EngineParts,
  context: CallContext,
  selection: SharedSelection | undefined,
): Promise<readonly SharedSpace[]> {
  const chosen = selection ?? 'default';
  if (chosen === 'none') return [];
  if (Array.isArray(chosen) && chosen.length > MAX_NAMED_SPACES) {
    throw new MemsvcError('INVALID_INPUT', `shared names ${chosen.length} spaces; the limit is ${MAX_NAMED_SPACES}`, { field: 'shared' });
  }
  const spaces = await spacesOf(parts, context);
  if (chosen === 'all') return spaces;
  if (chosen === 'default') return spaces.filter((space) => space.byDefault);
  const byKey = new Map(spaces.map((space) => [spaceKey(space.owner, space.space), space]));
  return (chosen as readonly SpaceName[]).map((name) => {
    const space = byKey.get(spaceKey(name.owner, name.space));
    if (!space) throw noGrant(name, 'read', 'shared');
    return space;
  });
}

/** Every space shared with the caller right now. */
export async function spacesOf(parts: EngineParts, context: CallContext): Promise<readonly SharedSpace[]> {
  return parts.grants.sharedSpaces({ tenant: context.tenant, apiKeyId: context.apiKeyId }, parts.clock.now());
}

/**
 * The context a write into `owner`'s space runs with, checked: the caller's own when it names no
 * owner (or itself), else the caller as the grantee of `owner`'s space, when a live grant gives
 * it read-write on that space (and the write is then bound to that space: asGrantee).
 */
export async function writerFor(
  parts: EngineParts,
  context: CallContext,
  owner: string | undefined,
  space: string | null | undefined,
): Promise<CallContext> {
  if (owner === undefined || owner === context.tenant) return context;
  const ownerId = toTenantId(owner, 'owner');
  if (space === undefined || space === null) {
    throw new MemsvcError('INVALID_INPUT', "writing into another owner's memories needs the scope of the space shared with you", {
      field: 'scope',
    });
  }
  const shared = (await spacesOf(parts, context)).find((candidate) => candidate.owner === ownerId && candidate.space === space);
  if (!shared || !accessAllows(shared.access, 'read-write')) throw noGrant({ owner, space }, 'read-write', 'owner');
  return asGrantee(context, shared);
}

/**
 * A memory of another owner that the caller may reach by id through a grant (`need`: read, or
 * read-write to change it), with the space that gives it; undefined when no grant reaches it.
 * Looked up only in the owners that share something with the caller, one read per owner.
 */
export async function sharedMemory(
  parts: EngineParts,
  context: CallContext,
  id: string,
  need: GrantAccess,
  options: { includeDeleted?: boolean } = {},
): Promise<{ memory: MemoryRecord; space: SharedSpace } | undefined> {
  const spaces = await spacesOf(parts, context);
  const owners = [...new Set(spaces.map((space) => space.owner))];
  for (const owner of owners) {
    const memory = await parts.store.findById(owner, id, options);
    if (!memory) continue;
    const space = spaces.find((candidate) => candidate.owner === owner && candidate.space === memory.scope);
    if (space && accessAllows(space.access, need)) return { memory, space };
    return undefined;
  }
  return undefined;
}

/**
 * The caller as the grantee of another owner's memory `id` that is not its own, in a space shared
 * with it read-write; undefined when no grant reaches the memory (the caller's NOT_FOUND stands).
 * FORBIDDEN when the space is shared with it read-only. Asked only after the caller's own tenant
 * did not have the memory, so a write of one's own memories costs nothing more.
 */
export async function sharedWriter(parts: EngineParts, context: CallContext, id: string): Promise<CallContext | undefined> {
  const shared = await sharedMemory(parts, context, id, 'read');
  if (!shared) return undefined;
  if (shared.space.access !== 'read-write') {
    throw new MemsvcError('FORBIDDEN', `the space ${JSON.stringify(shared.space.space)} is shared with you read-only`, {
      field: 'memoryId',
    });
  }
  return asGrantee(context, shared.space);
}

/**
 * The context of a grantee's write into the owner's memories through `space`: the owner's tenant,
 * an actor that names the grantee and the principal it called with, so the owner's audit says who
 * wrote, and the granted space, outside which the write touches nothing (R-GRANT-SUPERSEDES).
 */
export function asGrantee(context: CallContext, space: Pick<SharedSpace, 'owner' | 'space'>): CallContext {
  return { ...context, tenant: space.owner, actor: { id: `grantee:${context.tenant}:${context.actor.id}` }, grantSpace: space.space };
}

function noGrant(name: SpaceName, need: GrantAccess, field: string): MemsvcError {
  return new MemsvcError(
    'FORBIDDEN',
    `no live grant gives you ${need} access to ${JSON.stringify(name.owner)}'s space ${JSON.stringify(name.space)}`,
    { field },
  );
}
