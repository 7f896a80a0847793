import { checkGrantRequest, type GrantRequest, type MemoryGrant } from '../domain/memory-grants.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { CallContext, EngineParts } from './engine-parts.js';

/** Most grants one listing returns. */
export const MAX_GRANTS_LISTED = 500;

/**
 * Shares one of the caller's spaces. Only an owner shares its spaces: a grant naming another
 * `owner` is FORBIDDEN, so a grantee can never pass on what was shared with it (an operator acts
 * for an owner through delegation, spec §5.5, and is then that owner). Checked before anything is
 * written (checkGrantRequest). Whether the grantee exists is never asked, so the answer is the
 * same for an id nobody has (R-GRANT-NO-ENUMERATION, memory-grants.ts).
 */
export async function grantAccess(
  parts: EngineParts,
  context: CallContext,
  request: GrantRequest & { readonly owner?: string | undefined },
): Promise<MemoryGrant> {
  const grants = grantStoreOf(parts);
  if (request.owner !== undefined && request.owner !== context.tenant) {
    throw new MemsvcError('FORBIDDEN', `only ${JSON.stringify(request.owner)} can share its spaces; a grantee cannot share them on`, {
      field: 'owner',
    });
  }
  const now = parts.clock.now();
  return grants.grant(context.tenant, checkGrantRequest(context.tenant, request, now), context.actor.id, now);
}

/** Ends one of the caller's grants at once; NOT_FOUND when it has no live grant with that id. */
export async function revokeGrant(parts: EngineParts, context: CallContext, grantId: string): Promise<MemoryGrant> {
  const revoked = await grantStoreOf(parts).revoke(context.tenant, grantId, context.actor.id, parts.clock.now());
  if (!revoked) throw new MemsvcError('NOT_FOUND', `you have no live grant ${JSON.stringify(grantId)}`, { field: 'grantId' });
  return revoked;
}

/** Both sides of the caller's sharing: what it gave (ended grants too), and what it may read now. */
export async function listGrants(
  parts: EngineParts,
  context: CallContext,
  limit = 100,
): Promise<{ given: readonly MemoryGrant[]; received: readonly MemoryGrant[] }> {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_GRANTS_LISTED) {
    throw new MemsvcError('INVALID_INPUT', `limit must be a whole number from 1 to ${MAX_GRANTS_LISTED}`, { field: 'limit' });
  }
  const caller = { tenant: context.tenant, apiKeyId: context.apiKeyId };
  const [given, received] = await Promise.all([
    parts.grants.given(context.tenant, limit),
    parts.grants.received(caller, parts.clock.now(), limit),
  ]);
  return { given, received };
}

/** Whether the caller's reads include a space shared with it without naming it; NOT_FOUND for a grant that does not name it. */
export async function chooseSharedDefault(parts: EngineParts, context: CallContext, grantId: string, byDefault: boolean): Promise<void> {
  const caller = { tenant: context.tenant, apiKeyId: context.apiKeyId };
  if (!(await grantStoreOf(parts).chooseDefault(caller, grantId, byDefault, parts.clock.now()))) {
    throw new MemsvcError('NOT_FOUND', `no live grant ${JSON.stringify(grantId)} shares a space with you`, { field: 'grantId' });
  }
}

function grantStoreOf(parts: EngineParts) {
  return parts.grants;
}
