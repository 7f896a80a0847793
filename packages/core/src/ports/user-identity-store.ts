import type { TenantId } from '../domain/tenant.js';
import type { IdentityProvider } from './oauth-state-store.js';

/** A person's account at an identity provider, as a login proved it. */
export interface VerifiedIdentity {
  readonly provider: IdentityProvider;
  /** The provider's stable id of the account (GitHub's numeric id, Google's `sub`). */
  readonly providerUserId: string;
  /** A verified email address of the account, lower-cased. */
  readonly email: string;
  readonly displayName?: string | undefined;
}

/**
 * Which memsvc user an identity-provider account is (spec §2.4). The first login of an account
 * makes its verified email the user id, so a person reaches the same tenant through either
 * provider; later logins keep the user id the account was first linked to.
 */
export interface UserIdentityStore {
  /** Links (or re-links) an account, records the login at `now`, and returns the user it acts as. */
  recordLogin(identity: VerifiedIdentity, now: Date): Promise<TenantId>;
}
