import type { IdentityProvider, OAuthStateStore, PendingLogin } from '@memsvc/access';
import { type Clock, MemsvcError } from '@memsvc/core';
import type { Kysely } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { sqlStateOf, UNIQUE_VIOLATION } from './database-errors.js';

const STATE_HASH_PATTERN = /^[0-9a-f]{64}$/;
// RFC 7636 §4.1: 43 to 128 unreserved characters.
const CODE_VERIFIER_PATTERN = /^[A-Za-z0-9._~-]{43,128}$/;
// The caller has checked where it points; this only keeps a row from holding something absurd.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
const REDIRECT_TO_PATTERN = /^[^\u0000-\u001f\u007f-\u009f]{1,2048}$/;
const PROVIDERS: readonly string[] = ['github', 'google'] satisfies IdentityProvider[];

/** The dependencies of PgOAuthStateStore. */
export interface PgOAuthStateStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
  /** Stamps `created_at`, and decides whether a state's expiry lies in the future. */
  readonly clock: Clock;
}

/**
 * OAuth logins in progress in `oauth_states` (spec §2.4), keyed by the SHA-256 of their `state`.
 * Consuming is one DELETE … RETURNING: of two callbacks racing with one state, the second finds
 * the row already gone, so a state is used at most once without a lock held across statements.
 */
export class PgOAuthStateStore implements OAuthStateStore {
  readonly #db: Kysely<MemsvcDatabase>;
  readonly #clock: Clock;

  constructor(options: PgOAuthStateStoreOptions) {
    this.#db = options.db;
    this.#clock = options.clock;
  }

  async save(stateHash: string, login: PendingLogin, expiresAt: Date): Promise<void> {
    const now = this.#clock.now();
    if (!STATE_HASH_PATTERN.test(stateHash)) {
      throw new MemsvcError('INVALID_INPUT', 'the state must be stored as a SHA-256 digest in lowercase hex', { field: 'state' });
    }
    if (!PROVIDERS.includes(login.provider)) {
      throw new MemsvcError('INVALID_INPUT', `provider must be one of ${PROVIDERS.join(', ')}`, { field: 'provider' });
    }
    if (!CODE_VERIFIER_PATTERN.test(login.codeVerifier)) {
      throw new MemsvcError('INVALID_INPUT', 'codeVerifier must be 43 to 128 characters of A-Z a-z 0-9 . _ ~ - (RFC 7636)', {
        field: 'codeVerifier',
      });
    }
    if (login.redirectTo !== null && !REDIRECT_TO_PATTERN.test(login.redirectTo)) {
      throw new MemsvcError('INVALID_INPUT', 'redirectTo must be 1 to 2048 characters without control characters', {
        field: 'redirectTo',
      });
    }
    if (!(expiresAt.getTime() > now.getTime())) {
      throw new MemsvcError('INVALID_INPUT', 'expiresAt must be a time in the future', { field: 'expiresAt' });
    }
    try {
      await this.#db
        .insertInto('oauth_states')
        .values({
          state_hash: stateHash,
          provider: login.provider,
          code_verifier: login.codeVerifier,
          redirect_to: login.redirectTo,
          created_at: now,
          expires_at: expiresAt,
        })
        .execute();
    } catch (error) {
      // A 256-bit random state does not collide; a repeat is the caller saving the same one twice.
      if (sqlStateOf(error) === UNIQUE_VIOLATION) {
        throw new MemsvcError('CONFLICT', 'this state is already stored; generate a new one', { field: 'state' });
      }
      throw error;
    }
  }

  async consume(stateHash: string, provider: IdentityProvider, now: Date): Promise<PendingLogin | undefined> {
    // Whatever a callback's query string carries arrives here; a malformed value matches nothing.
    if (!STATE_HASH_PATTERN.test(stateHash) || !PROVIDERS.includes(provider)) return undefined;
    // The provider is part of the match, so a callback of one provider cannot burn (delete) a
    // state another provider's login is waiting on.
    const row = await this.#db
      .deleteFrom('oauth_states')
      .where('state_hash', '=', stateHash)
      .where('provider', '=', provider)
      .returning(['provider', 'code_verifier', 'redirect_to', 'expires_at'])
      .executeTakeFirst();
    // An expired state is deleted all the same: it can never be used again.
    if (!row || row.expires_at.getTime() <= now.getTime()) return undefined;
    // save() always writes a verifier; a row without one (written by hand) cannot finish a PKCE login.
    if (row.code_verifier === null) return undefined;
    return { provider: row.provider, codeVerifier: row.code_verifier, redirectTo: row.redirect_to };
  }
}
