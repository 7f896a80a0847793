import { MemsvcError } from '../errors/memsvc-error.js';
import { checkScope } from './memory-limits.js';
import { isValidTenantId, type TenantId } from './tenant.js';

/** Who a grant is for: one user, every member of one organization, or one API key. */
export const GRANTEE_KINDS = ['user', 'organization', 'api-key'] as const;
export type GranteeKind = (typeof GRANTEE_KINDS)[number];

/** `read`: the grantee's reads may include the space; `read-write`: it may also write there. */
export const GRANT_ACCESS = ['read', 'read-write'] as const;
export type GrantAccess = (typeof GRANT_ACCESS)[number];

/** Longest a grant may run; an owner renews it by granting again. */
export const MAX_GRANT_DAYS = 3_650;

export interface Grantee {
  readonly kind: GranteeKind;
  readonly id: string;
}

/**
 * One space of an owner's memories (the memories of one scope) shared with a grantee. The owner
 * is always a tenant whose memories the grant shares: a grantee can never pass a grant on.
 */
export interface MemoryGrant {
  readonly id: string;
  readonly owner: TenantId;
  readonly space: string;
  readonly grantee: Grantee;
  readonly access: GrantAccess;
  /** The audit actor that made the grant. */
  readonly grantedBy: string;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  readonly revokedAt: Date | null;
  readonly revokedBy: string | null;
}

/** A space a caller may read (and maybe write) through a grant: what a shared hit is labelled with. */
export interface SharedSpace {
  readonly owner: TenantId;
  readonly space: string;
  readonly access: GrantAccess;
  readonly grantId: string;
  /** Whether the caller's reads include it without naming it. */
  readonly byDefault: boolean;
}

/** A grant as the owner asks for it, before the rules are applied. */
export interface GrantRequest {
  readonly space: string;
  readonly grantee: Grantee;
  readonly access: GrantAccess;
  readonly expiresAt?: Date | undefined;
}

/** How organization and API key ids look (memsvc mints them as UUIDs): a format, never a lookup. */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The rules of a new grant, checked before anything is written: a real space name, a grantee id
 * of the right form for its kind (a user id, or the UUID of an organization or API key) that is
 * not the owner, an access level, an expiry in the future and within MAX_GRANT_DAYS.
 *
 * R-GRANT-NO-ENUMERATION: whether the grantee exists is never asked. A grant to an id nobody has
 * is accepted like any other and reaches nobody until a user with that id signs in (as sharing
 * with an address that has no account yet); organization and API key ids are random UUIDs memsvc
 * mints itself, so an unknown one never comes to exist. Answering NOT_FOUND instead would let
 * any key with keys:manage confirm which user ids, organizations and other tenants' keys exist.
 */
export function checkGrantRequest(owner: TenantId, request: GrantRequest, now: Date): GrantRequest {
  const space = spaceOf(request.space);
  if (space === null) throw new MemsvcError('INVALID_INPUT', 'space must name a scope of your memories', { field: 'space' });
  if (!GRANTEE_KINDS.includes(request.grantee.kind)) {
    throw new MemsvcError('INVALID_INPUT', `grantee kind must be one of ${GRANTEE_KINDS.join(', ')}`, { field: 'grantee' });
  }
  const granteeId = typeof request.grantee.id === 'string' ? request.grantee.id.trim() : '';
  if (granteeId.length === 0 || granteeId.length > 128) {
    throw new MemsvcError('INVALID_INPUT', 'grantee id must be 1 to 128 characters', { field: 'grantee' });
  }
  if (request.grantee.kind === 'user' && !isValidTenantId(granteeId)) {
    throw new MemsvcError(
      'INVALID_INPUT',
      'grantee id must be a user id: letters, digits and . _ : @ / + -, starting with a letter or digit',
      {
        field: 'grantee',
      },
    );
  }
  if (request.grantee.kind !== 'user' && !UUID_PATTERN.test(granteeId)) {
    throw new MemsvcError('INVALID_INPUT', `grantee id must be the id of an ${request.grantee.kind} (a UUID)`, { field: 'grantee' });
  }
  if (request.grantee.kind === 'user' && granteeId === owner) {
    throw new MemsvcError('INVALID_INPUT', 'a grant to yourself changes nothing: your own memories are yours already', {
      field: 'grantee',
    });
  }
  if (!GRANT_ACCESS.includes(request.access)) {
    throw new MemsvcError('INVALID_INPUT', `access must be one of ${GRANT_ACCESS.join(', ')}`, { field: 'access' });
  }
  const { expiresAt } = request;
  if (expiresAt !== undefined) {
    if (Number.isNaN(expiresAt.getTime())) throw new MemsvcError('INVALID_INPUT', 'expiresAt is not a valid date', { field: 'expiresAt' });
    if (expiresAt <= now)
      throw new MemsvcError('INVALID_INPUT', 'expiresAt is in the past: the grant would never apply', { field: 'expiresAt' });
    if (expiresAt.getTime() - now.getTime() > MAX_GRANT_DAYS * 86_400_000) {
      throw new MemsvcError('INVALID_INPUT', `expiresAt is more than ${MAX_GRANT_DAYS} days away`, { field: 'expiresAt' });
    }
  }
  return { space, grantee: { kind: request.grantee.kind, id: granteeId }, access: request.access, expiresAt };
}

/** The scope rules (memory-limits.ts), reported under the grant's own field name. */
function spaceOf(space: string): string | null {
  try {
    return checkScope(typeof space === 'string' ? space : null);
  } catch (error) {
    if (error instanceof MemsvcError) throw new MemsvcError('INVALID_INPUT', error.message.replace(/^scope/, 'space'), { field: 'space' });
    throw error;
  }
}

/** Whether a grant applies at `now`: not revoked, not expired. */
export function isGrantLive(grant: MemoryGrant, now: Date): boolean {
  return grant.revokedAt === null && (grant.expiresAt === null || grant.expiresAt > now);
}

/** Whether access of this level lets the grantee do `need`. */
export function accessAllows(access: GrantAccess, need: GrantAccess): boolean {
  return need === 'read' || access === 'read-write';
}

/** The space key of an owner's space, for maps: owner ids and scopes cannot contain a newline. */
export function spaceKey(owner: string, space: string): string {
  return `${owner}\n${space}`;
}
