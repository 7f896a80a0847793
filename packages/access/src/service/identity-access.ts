import type { Clock, TenantId } from '@memsvc/core';
import { parseIdentityAccount } from '../domain/identity-link-rules.js';
import type { IdentityLink, IdentityLinkChange, IdentityRelink, UserIdentityStore } from '../ports/user-identity-store.js';
import type { FieldNames } from './access-stores.js';

/**
 * The GitHub and Google accounts linked to users: listed, linked by an operator, unlinked, blocked.
 * An account is written `provider:id` and parsed here; each change ends the sessions it must.
 */
export class IdentityAccess {
  readonly #identities: UserIdentityStore;
  readonly #clock: Clock;

  constructor(identities: UserIdentityStore, clock: Clock) {
    this.#identities = identities;
    this.#clock = clock;
  }

  /** The linked accounts, of one user or of everyone. */
  list(userId?: TenantId): Promise<readonly IdentityLink[]> {
    return this.#identities.list({ userId });
  }

  /** Links an account to a user, whatever its email; moving it from another user ends that user's sessions. */
  async link(account: string, userId: TenantId, fields: FieldNames<'account'> = {}): Promise<IdentityRelink> {
    return this.#identities.link(parseIdentityAccount(account, fields.account ?? 'account'), userId, this.#clock.now());
  }

  /** Forgets a link (its user's sessions end); undefined for an account not linked. */
  async unlink(account: string, fields: FieldNames<'account'> = {}): Promise<IdentityLinkChange | undefined> {
    return this.#identities.unlink(parseIdentityAccount(account, fields.account ?? 'account'), this.#clock.now());
  }

  /** Blocks (its user's sessions end) or unblocks an account; undefined for an account not linked. */
  async setBlocked(account: string, blocked: boolean, fields: FieldNames<'account'> = {}): Promise<IdentityLinkChange | undefined> {
    return this.#identities.setBlocked(parseIdentityAccount(account, fields.account ?? 'account'), blocked, this.#clock.now());
  }
}
