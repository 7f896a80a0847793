import type { TenantId } from '@memsvc/core';
import type { IdentityAccount, IdentityLoginOutcome, IdentityProvider } from '../domain/identity-link-rules.js';

/** A person's account at an identity provider, as a login proved it. */
export interface VerifiedIdentity extends IdentityAccount {
  /** A verified email address of the account, lower-cased. */
  readonly email: string;
  readonly displayName?: string | undefined;
}

/** A linked account as an operator sees it (`memsvc identities list`). */
export interface IdentityLink extends IdentityAccount {
  /** The user (tenant) the account logs in as. */
  readonly userId: TenantId;
  /** The verified email of its latest login, refused ones included; null when it never logged in. */
  readonly email: string | null;
  readonly displayName: string | null;
  readonly createdAt: Date;
  /** Its latest login that was let in. */
  readonly lastLoginAt: Date | null;
  /** When an operator linked it to `userId` (it then logs in whatever its email), or null. */
  readonly pinnedAt: Date | null;
  /** When an operator blocked it (it cannot log in), or null. */
  readonly blockedAt: Date | null;
}

/** An operator's change to a link, and how many live sessions of its user it ended. */
export interface IdentityLinkChange {
  readonly link: IdentityLink;
  /** Live sessions of the user that a GitHub or Google login opened, ended with the change. */
  readonly sessionsEnded: number;
}

/** An operator's link of an account: the user it left, whose sessions ended, when it moved. */
export interface IdentityRelink extends IdentityLinkChange {
  /** The user the account was linked to before, when that was another; its sessions are the ones ended. */
  readonly previousUserId: TenantId | null;
}

/**
 * Which memsvc user an identity-provider account is (spec §2.4). The first login of an account
 * makes its verified email the user id, so a person reaches the same tenant through either
 * provider. Later logins reach that user only while the verified email is still that address,
 * unless an operator linked the account themselves; a blocked account never logs in.
 */
export interface UserIdentityStore {
  /**
   * Links a new account by its email, or checks a linked one (identityLoginOutcome); records the
   * email and, when let in, the login time `now`. INVALID_INPUT naming the field for a bad
   * identity, or for a new account whose email cannot be a user id.
   */
  recordLogin(identity: VerifiedIdentity, now: Date): Promise<IdentityLoginOutcome>;

  /** The linked accounts, of one user or of all, by user then provider and account. */
  list(filter?: { readonly userId?: TenantId | undefined }): Promise<readonly IdentityLink[]>;

  /**
   * The operator links an account to a user, whatever its email (a pin); an account never seen
   * is linked ahead of its first login. Moving it from another user ends the live GitHub and
   * Google sessions of that other user, in the same transaction.
   */
  link(account: IdentityAccount, userId: TenantId, now: Date): Promise<IdentityRelink>;

  /**
   * Forgets an account's link, ending its user's live GitHub and Google sessions in the same
   * transaction; its next login links it afresh by its email then. Undefined when not linked.
   */
  unlink(account: IdentityAccount, now: Date): Promise<IdentityLinkChange | undefined>;

  /**
   * Blocks an account (`blocked`: its logins are refused, its user's live GitHub and Google
   * sessions end in the same transaction) or unblocks it. The first block time stays. Undefined
   * when the account is not linked.
   */
  setBlocked(account: IdentityAccount, blocked: boolean, now: Date): Promise<IdentityLinkChange | undefined>;
}
