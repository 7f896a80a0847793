import {
  type IdentityProvider,
  isValidTenantId,
  MemsvcError,
  type TenantId,
  toTenantId,
  type UserIdentityStore,
  type VerifiedIdentity,
} from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { untrustedText } from './untrusted-text.js';

const PROVIDERS: readonly string[] = ['github', 'google'] satisfies IdentityProvider[];
// Google's `sub` is at most 255 ASCII characters; GitHub's id is a number.
const PROVIDER_USER_ID_PATTERN = /^[\x21-\x7e]{1,255}$/;
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
 * Identity-provider accounts in `user_identities` (spec §2.4), keyed by (provider, provider's id).
 * Neither a clock nor ids: the login time is given, and the user id comes from the email.
 */
export class PgUserIdentityStore implements UserIdentityStore {
  readonly #db: Kysely<MemsvcDatabase>;

  constructor(options: PgUserIdentityStoreOptions) {
    this.#db = options.db;
  }

  async recordLogin(identity: VerifiedIdentity, now: Date): Promise<TenantId> {
    if (!PROVIDERS.includes(identity.provider)) {
      throw new MemsvcError('INVALID_INPUT', `provider must be one of ${PROVIDERS.join(', ')}`, { field: 'provider' });
    }
    if (!PROVIDER_USER_ID_PATTERN.test(identity.providerUserId)) {
      throw new MemsvcError('INVALID_INPUT', 'providerUserId must be 1 to 255 printable ASCII characters without spaces', {
        field: 'providerUserId',
      });
    }
    const email = identity.email.toLowerCase();
    if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) {
      throw new MemsvcError('INVALID_INPUT', 'email must be an email address', { field: 'email' });
    }
    const displayName = untrustedText(identity.displayName, DISPLAY_NAME_MAX_LENGTH);

    // The common case, in one statement: a new account's user id is its email; an account seen
    // before keeps the user id it was first linked to, whatever its email is now.
    if (isValidTenantId(email)) {
      const row = await this.#db
        .insertInto('user_identities')
        .values({
          provider: identity.provider,
          provider_user_id: identity.providerUserId,
          user_id: email,
          email,
          display_name: displayName,
          created_at: now,
          last_login_at: now,
        })
        .onConflict((conflict) =>
          conflict.columns(['provider', 'provider_user_id']).doUpdateSet({
            email: sql<string>`excluded.email`,
            display_name: sql<string | null>`excluded.display_name`,
            last_login_at: sql<Date>`excluded.last_login_at`,
          }),
        )
        .returning('user_id')
        .executeTakeFirstOrThrow();
      return row.user_id as TenantId;
    }

    // An email that cannot be a tenant id (an apostrophe, say, or over 128 characters) cannot
    // start a new user, but must not lock out an account that is already linked to one.
    const linked = await this.#db
      .updateTable('user_identities')
      .set({ email, display_name: displayName, last_login_at: now })
      .where('provider', '=', identity.provider)
      .where('provider_user_id', '=', identity.providerUserId)
      .returning('user_id')
      .executeTakeFirst();
    if (linked) return linked.user_id as TenantId;
    // Not linked yet: this throws INVALID_INPUT naming the email, with the tenant-id rule's reason.
    return toTenantId(email, 'email');
  }
}
