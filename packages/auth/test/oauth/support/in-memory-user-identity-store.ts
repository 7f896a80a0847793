import {
  type IdentityAccount,
  type IdentityLink,
  type IdentityLinkChange,
  type IdentityLoginOutcome,
  type IdentityRelink,
  identityLoginOutcome,
  type UserIdentityStore,
  type VerifiedIdentity,
} from '@memsvc/access';
import { type TenantId, toTenantId } from '@memsvc/core';

/**
 * The UserIdentityStore port as a map: the first login's email becomes the user id, and later
 * logins follow core's rule. It knows no sessions, so its changes end none.
 */
export class InMemoryUserIdentityStore implements UserIdentityStore {
  readonly #links = new Map<string, IdentityLink>();
  /** Every recorded login, oldest first. */
  readonly logins: { readonly identity: VerifiedIdentity; readonly at: Date }[] = [];

  async recordLogin(identity: VerifiedIdentity, now: Date): Promise<IdentityLoginOutcome> {
    const key = keyOf(identity);
    const email = identity.email.toLowerCase();
    const link = this.#links.get(key) ?? newLink(identity, toTenantId(email, 'email'), now);
    const outcome = identityLoginOutcome({ userId: link.userId, pinned: link.pinnedAt !== null, blocked: link.blockedAt !== null }, email);
    this.#links.set(key, { ...link, email, lastLoginAt: outcome.kind === 'linked' ? now : link.lastLoginAt });
    this.logins.push({ identity, at: now });
    return outcome;
  }

  async list(filter: { readonly userId?: TenantId | undefined } = {}): Promise<readonly IdentityLink[]> {
    return [...this.#links.values()].filter((link) => filter.userId === undefined || link.userId === filter.userId);
  }

  async link(account: IdentityAccount, userId: TenantId, now: Date): Promise<IdentityRelink> {
    const before = this.#links.get(keyOf(account));
    const link = { ...(before ?? newLink({ ...account, email: '' }, userId, now)), userId, pinnedAt: now };
    this.#links.set(keyOf(account), link);
    return { link, sessionsEnded: 0, previousUserId: before && before.userId !== userId ? before.userId : null };
  }

  async unlink(account: IdentityAccount): Promise<IdentityLinkChange | undefined> {
    const link = this.#links.get(keyOf(account));
    this.#links.delete(keyOf(account));
    return link && { link, sessionsEnded: 0 };
  }

  async setBlocked(account: IdentityAccount, blocked: boolean, now: Date): Promise<IdentityLinkChange | undefined> {
    const link = this.#links.get(keyOf(account));
    if (!link) return undefined;
    const changed = { ...link, blockedAt: blocked ? (link.blockedAt ?? now) : null };
    this.#links.set(keyOf(account), changed);
    return { link: changed, sessionsEnded: 0 };
  }
}

const keyOf = (account: IdentityAccount) => `${account.provider}:${account.providerUserId}`;

function newLink(identity: VerifiedIdentity, userId: TenantId, now: Date): IdentityLink {
  return {
    provider: identity.provider,
    providerUserId: identity.providerUserId,
    userId,
    email: identity.email === '' ? null : identity.email.toLowerCase(),
    displayName: identity.displayName ?? null,
    createdAt: now,
    lastLoginAt: null,
    pinnedAt: null,
    blockedAt: null,
  };
}
