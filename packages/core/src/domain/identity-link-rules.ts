import type { TenantId } from './tenant.js';

/** What an operator decided about a linked identity-provider account, and the user it acts as. */
export interface IdentityLinkState {
  /** The user (tenant) the account logs in as: its verified email at its first login. */
  readonly userId: TenantId;
  /** The operator linked the account to `userId` themselves (`memsvc identities link`). */
  readonly pinned: boolean;
  /** The operator blocked the account (`memsvc identities block`). */
  readonly blocked: boolean;
}

/** Why a linked account may not log in. */
export type IdentityLoginRefusal = 'identity-blocked' | 'identity-email-changed';

/** The result of a login by an identity-provider account: the user it acts as, or a refusal. */
export type IdentityLoginOutcome =
  | { readonly kind: 'linked'; readonly userId: TenantId }
  | { readonly kind: 'refused'; readonly reason: IdentityLoginRefusal };

/**
 * Whether a linked account may log in with the email its provider verified just now
 * (R-IDENTITY-BLOCKED, R-IDENTITY-EMAIL, R-IDENTITY-PINNED). The link was made by the email, so it
 * holds only while the email does: an address handed to someone else must not keep opening the
 * tenant for its former owner, and a changed email must not quietly move anyone to other data.
 * Only an operator's explicit link keeps an account in its tenant whatever its email says.
 */
export function identityLoginOutcome(link: IdentityLinkState, verifiedEmail: string): IdentityLoginOutcome {
  if (link.blocked) return { kind: 'refused', reason: 'identity-blocked' };
  if (link.pinned || link.userId === verifiedEmail.toLowerCase()) return { kind: 'linked', userId: link.userId };
  return { kind: 'refused', reason: 'identity-email-changed' };
}
