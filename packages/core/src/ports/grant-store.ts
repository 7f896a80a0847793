import type { Grantee, GrantRequest, MemoryGrant, SharedSpace } from '../domain/memory-grants.js';
import type { TenantId } from '../domain/tenant.js';

/** Who is asking which spaces are shared with them: the user, and the API key they call with. */
export interface GranteeIdentity {
  readonly tenant: TenantId;
  /** The API key behind the call (a key, or a session exchanged for one); grants to that key apply. */
  readonly apiKeyId?: string | undefined;
}

/**
 * Grants of shared spaces (issue 43). Always read on the primary: a revocation applies to the
 * next call on every replica. Every method is scoped: an owner reads and changes only grants of
 * its own spaces; a grantee reads only grants that name it (itself, an organization it is a
 * member of, or the API key it calls with).
 */
export interface GrantStore {
  /**
   * Grants `request` (already checked by core) on `owner`'s space, whether or not the grantee
   * exists yet: a store must not ask, nor answer, take longer or fail differently when it does
   * not (R-GRANT-NO-ENUMERATION). Granting again to the same grantee the same space changes that
   * live grant's access and expiry (one live grant per pair).
   */
  grant(owner: TenantId, request: GrantRequest, grantedBy: string, now: Date): Promise<MemoryGrant>;

  /** Revokes one of `owner`'s live grants; undefined when `owner` has no live grant with that id. */
  revoke(owner: TenantId, grantId: string, revokedBy: string, now: Date): Promise<MemoryGrant | undefined>;

  /** The grants `owner` gave, live first then newest first, at most `limit`. */
  given(owner: TenantId, limit: number): Promise<readonly MemoryGrant[]>;

  /** The live grants naming the caller, newest first, at most `limit`. */
  received(caller: GranteeIdentity, now: Date, limit: number): Promise<readonly MemoryGrant[]>;

  /**
   * The spaces the caller may read at `now`, one per owner and space (the widest access of the
   * grants that reach it), with whether the caller chose to read it by default. One read.
   */
  sharedSpaces(caller: GranteeIdentity, now: Date): Promise<readonly SharedSpace[]>;

  /**
   * Whether the caller's reads include a grant's space without naming it. False when the grant
   * is not a live one naming the caller.
   */
  chooseDefault(caller: GranteeIdentity, grantId: string, byDefault: boolean, now: Date): Promise<boolean>;
}

export type { Grantee };
