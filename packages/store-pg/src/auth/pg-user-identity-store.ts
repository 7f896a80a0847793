import {
  checkIdentityAccount,
  type IdentityAccount,
  type IdentityLink,
  type IdentityLinkChange,
  type IdentityLoginOutcome,
  type IdentityRelink,
  identityLoginOutcome,
  type UserIdentityStore,
  type VerifiedIdentity,
} from '@memsvc/access';
import { isValidTenantId, MemsvcError, type TenantId, toTenantId } from '@memsvc/core';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { MemsvcDatabase, UserIdentitiesTable } from '../schema/database-schema.js';
import { endDerivedCredentials } from './end-derived-credentials.js';
import { endLiveSessions } from './end-live-sessions.js';
import { untrustedText } from './untrusted-text.js';

// RFC 5321's limit on a path; no whitespace or control characters, one @ with text either side.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse them
const EMAIL_PATTERN = /^[^\s\u0000-\u001f\u007f-\u009f@]+@[^\s\u0000-\u001f\u007f-\u009f@]+$/;
const EMAIL_MAX_LENGTH = 320;
const DISPLAY_NAME_MAX_LENGTH = 200;

/** The dependencies of PgUserIdentityStore. */
export interface PgUserIdentityStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
}

/**
 * Identity-provider accounts in `user_identities` (spec §2.4), keyed by (provider, provider's id),
 * with the operator's pins and blocks (migration 0018). Neither a clock nor ids: times are given,
 * and a user id comes from an email or from the operator.
 */
export class PgUserIdentityStore implements UserIdentityStore {
  readonly #db: Kysely<MemsvcDatabase>;

  constructor(options: PgUserIdentityStoreOptions) {
    this.#db = options.db;
  }

  async recordLogin(identity: VerifiedIdentity, now: Date): Promise<IdentityLoginOutcome> {
    const account = checkIdentityAccount(identity);
    const email = identity.email.toLowerCase();
    if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) {
      throw new MemsvcError('INVALID_INPUT', 'email must be an email address', { field: 'email' });
    }
    const displayName = untrustedText(identity.displayName, DISPLAY_NAME_MAX_LENGTH);

    return this.#db.transaction().execute(async (trx) => {
      // A new account's user id is its email. An email that cannot be a tenant id (an apostrophe,
      // say, or over 128 characters) cannot start a new user.
      if (isValidTenantId(email)) {
        await trx
          .insertInto('user_identities')
          .values({ ...accountColumns(account), user_id: email, email, display_name: displayName, created_at: now, last_login_at: null })
          .onConflict((conflict) => conflict.columns(['provider', 'provider_user_id']).doNothing())
          .execute();
      }
      // Locked: an operator's block, unlink or move of this account waits for this check instead of racing it.
      const link = await trx
        .selectFrom('user_identities')
        .select(['user_id', 'pinned_at', 'blocked_at'])
        .where('provider', '=', account.provider)
        .where('provider_user_id', '=', account.providerUserId)
        .forUpdate()
        .executeTakeFirst();
      // Not linked and not linkable: this throws INVALID_INPUT naming the email, with the tenant-id rule's reason.
      if (!link) return { kind: 'linked', userId: toTenantId(email, 'email') };
      const outcome = identityLoginOutcome(
        { userId: link.user_id as TenantId, pinned: link.pinned_at !== null, blocked: link.blocked_at !== null },
        email,
      );
      // The email seen is kept even when refused: it is what the operator needs to decide.
      await trx
        .updateTable('user_identities')
        .set({ email, display_name: displayName, ...(outcome.kind === 'linked' ? { last_login_at: now } : {}) })
        .where('provider', '=', account.provider)
        .where('provider_user_id', '=', account.providerUserId)
        .execute();
      return outcome;
    });
  }

  async list(filter: { readonly userId?: TenantId | undefined } = {}): Promise<readonly IdentityLink[]> {
    let query = this.#db.selectFrom('user_identities').selectAll();
    if (filter.userId !== undefined) query = query.where('user_id', '=', toTenantId(filter.userId, 'userId'));
    const rows = await query.orderBy('user_id').orderBy('provider').orderBy('provider_user_id').execute();
    return rows.map(toLink);
  }

  async link(account: IdentityAccount, userId: TenantId, now: Date): Promise<IdentityRelink> {
    const checked = checkIdentityAccount(account);
    const user = toTenantId(userId, 'userId');
    return this.#db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('user_identities')
        .select('user_id')
        .where('provider', '=', checked.provider)
        .where('provider_user_id', '=', checked.providerUserId)
        .forUpdate()
        .executeTakeFirst();
      const row = await trx
        .insertInto('user_identities')
        .values({ ...accountColumns(checked), user_id: user, email: null, display_name: null, created_at: now, pinned_at: now })
        .onConflict((conflict) =>
          conflict.columns(['provider', 'provider_user_id']).doUpdateSet({ user_id: user, pinned_at: sql<Date>`excluded.pinned_at` }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      // Sessions the account opened as the user it leaves must not outlive the move.
      const previousUserId = before !== undefined && before.user_id !== user ? (before.user_id as TenantId) : null;
      const sessionsEnded = previousUserId === null ? 0 : await endLoginSessions(trx, previousUserId, now);
      return { link: toLink(row), sessionsEnded, previousUserId };
    });
  }

  async unlink(account: IdentityAccount, now: Date): Promise<IdentityLinkChange | undefined> {
    const checked = checkIdentityAccount(account);
    return this.#db.transaction().execute(async (trx) => {
      const row = await trx
        .deleteFrom('user_identities')
        .where('provider', '=', checked.provider)
        .where('provider_user_id', '=', checked.providerUserId)
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      return { link: toLink(row), sessionsEnded: await endLoginSessions(trx, row.user_id, now) };
    });
  }

  async setBlocked(account: IdentityAccount, blocked: boolean, now: Date): Promise<IdentityLinkChange | undefined> {
    const checked = checkIdentityAccount(account);
    return this.#db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('user_identities')
        .set({ blocked_at: blocked ? sql<Date>`coalesce(blocked_at, ${now})` : null })
        .where('provider', '=', checked.provider)
        .where('provider_user_id', '=', checked.providerUserId)
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      const sessionsEnded = blocked ? await endLoginSessions(trx, row.user_id, now) : 0;
      return { link: toLink(row), sessionsEnded };
    });
  }
}

function accountColumns(account: IdentityAccount) {
  return { provider: account.provider, provider_user_id: account.providerUserId };
}

function toLink(row: Selectable<UserIdentitiesTable>): IdentityLink {
  return {
    provider: row.provider,
    providerUserId: row.provider_user_id,
    userId: row.user_id as TenantId,
    email: row.email,
    displayName: row.display_name,
    createdAt: row.created_at,
    lastLoginAt: row.last_login_at,
    pinnedAt: row.pinned_at,
    blockedAt: row.blocked_at,
  };
}

/**
 * Ends a user's live GitHub and Google sessions, and the keys made in them, in the caller's
 * transaction; returns how many sessions ended.
 */
async function endLoginSessions(trx: Kysely<MemsvcDatabase>, userId: string, now: Date): Promise<number> {
  const ended = await endLiveSessions(trx, { identityLoginsOf: userId }, now);
  await endDerivedCredentials(trx, { sessionJtis: ended }, now);
  return ended.length;
}
