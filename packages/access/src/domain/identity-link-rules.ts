import type { TenantId } from '@memsvc/core';
import { MemsvcError } from '@memsvc/core';

/** The identity providers memsvc can log a person in with (spec §5.5). */
export type IdentityProvider = 'github' | 'google';

/** An account at an identity provider: the provider and the provider's stable id of it. */
export interface IdentityAccount {
  readonly provider: IdentityProvider;
  /** The provider's stable id of the account (GitHub's numeric id, Google's `sub`). */
  readonly providerUserId: string;
}

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

/** The identity providers a person can log in with. */
export const IDENTITY_PROVIDERS: readonly IdentityProvider[] = Object.freeze(['github', 'google']);

// Google's `sub` is at most 255 ASCII characters; GitHub's id is a number.
const PROVIDER_USER_ID_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * Checks an account's provider and the provider's id of it (1–255 printable ASCII characters);
 * INVALID_INPUT names the field (`fields` renames them, for a command-line argument).
 */
export function checkIdentityAccount(
  account: IdentityAccount,
  fields: { readonly provider: string; readonly providerUserId: string } = { provider: 'provider', providerUserId: 'providerUserId' },
): IdentityAccount {
  if (!IDENTITY_PROVIDERS.includes(account.provider)) {
    throw new MemsvcError('INVALID_INPUT', `${fields.provider} must be one of ${IDENTITY_PROVIDERS.join(', ')}`, {
      field: fields.provider,
    });
  }
  if (!PROVIDER_USER_ID_PATTERN.test(account.providerUserId)) {
    throw new MemsvcError('INVALID_INPUT', `${fields.providerUserId} must be 1 to 255 printable ASCII characters without spaces`, {
      field: fields.providerUserId,
    });
  }
  return { provider: account.provider, providerUserId: account.providerUserId };
}

/** An account written `<provider>:<id>` (`github:583231`), as `memsvc identities list` shows it; INVALID_INPUT names `field`. */
export function parseIdentityAccount(text: string, field: string): IdentityAccount {
  const colon = text.indexOf(':');
  const provider = (colon < 0 ? '' : text.slice(0, colon)) as IdentityProvider;
  if (colon < 0 || !IDENTITY_PROVIDERS.includes(provider)) {
    throw new MemsvcError(
      'INVALID_INPUT',
      `${field} must be <provider>:<id> with a provider of ${IDENTITY_PROVIDERS.join(', ')} (as memsvc identities list shows it)`,
      {
        field,
      },
    );
  }
  return checkIdentityAccount({ provider, providerUserId: text.slice(colon + 1) }, { provider: field, providerUserId: field });
}
