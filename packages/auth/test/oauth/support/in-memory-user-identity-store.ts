import { type TenantId, toTenantId, type UserIdentityStore, type VerifiedIdentity } from '@memsvc/core';

/** The UserIdentityStore port as a map: the first login's email becomes the user id, and stays. */
export class InMemoryUserIdentityStore implements UserIdentityStore {
  readonly #users = new Map<string, TenantId>();
  /** Every recorded login, oldest first. */
  readonly logins: { readonly identity: VerifiedIdentity; readonly at: Date }[] = [];

  async recordLogin(identity: VerifiedIdentity, now: Date): Promise<TenantId> {
    const account = `${identity.provider}:${identity.providerUserId}`;
    const userId = this.#users.get(account) ?? toTenantId(identity.email);
    this.#users.set(account, userId);
    this.logins.push({ identity, at: now });
    return userId;
  }
}
