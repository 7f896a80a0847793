import type { AuthorizationGrant, LiveRefreshToken, OAuthRefreshStore, RefreshOutcome } from '@memsvc/access';
import type { Clock } from '@memsvc/core';
import { MemsvcError } from '@memsvc/core';
import type { Kysely } from 'kysely';
import { isUuid } from '../ids/uuid-v7.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { checkClientId, checkDigest, checkFuture, checkGrantScopes, checkResource, checkSubject, isDigest } from './oauth-row-checks.js';
import { grantOfFamily, insertRefreshFamily, revokeRefreshFamily } from './refresh-families.js';

/** The dependencies of PgOAuthRefreshStore. */
export interface PgOAuthRefreshStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
  readonly clock: Clock;
}

/**
 * Refresh-token families (`oauth_refresh_families`) and their tokens (`oauth_refresh_tokens`,
 * by hash). A rotation marks the presented token used with a conditional UPDATE: of two racing
 * uses of one token, the second finds it used and revokes the family — which is what a
 * refresh token replayed by a thief looks like, whichever of the two is the thief. The access
 * token the first use goes on to issue is recorded only while the family is live
 * (lockLiveFamily), so the revocation reaches it whichever commits first.
 */
export class PgOAuthRefreshStore implements OAuthRefreshStore {
  readonly #db: Kysely<MemsvcDatabase>;
  readonly #clock: Clock;

  constructor(options: PgOAuthRefreshStoreOptions) {
    this.#db = options.db;
    this.#clock = options.clock;
  }

  async startFamily(familyId: string, grant: AuthorizationGrant, tokenHash: string, expiresAt: Date): Promise<void> {
    const now = this.#clock.now();
    if (!isUuid(familyId)) throw new MemsvcError('INVALID_INPUT', 'familyId must be a UUID', { field: 'familyId' });
    checkDigest(tokenHash, 'refreshToken');
    checkClientId(grant.clientId);
    checkResource(grant.resource);
    const scopes = checkGrantScopes(grant.scopes);
    checkSubject(grant);
    checkFuture(expiresAt, now);
    await this.#db
      .transaction()
      .execute((trx) => insertRefreshFamily(trx, { id: familyId, grant: { ...grant, scopes }, tokenHash, expiresAt }, now));
  }

  async peek(tokenHash: string, now: Date): Promise<LiveRefreshToken | undefined> {
    if (!isDigest(tokenHash)) return undefined;
    const family = await this.#db
      .selectFrom('oauth_refresh_tokens')
      .innerJoin('oauth_refresh_families', 'oauth_refresh_families.id', 'oauth_refresh_tokens.family_id')
      .selectAll('oauth_refresh_families')
      .where('oauth_refresh_tokens.token_hash', '=', tokenHash)
      .where('oauth_refresh_tokens.used_at', 'is', null)
      .where('oauth_refresh_families.revoked_at', 'is', null)
      .where('oauth_refresh_families.expires_at', '>', now)
      .executeTakeFirst();
    return family ? { familyId: family.id, grant: grantOfFamily(family) } : undefined;
  }

  async rotate(tokenHash: string, nextHash: string, now: Date): Promise<RefreshOutcome> {
    if (!isDigest(tokenHash)) return { kind: 'unknown' };
    checkDigest(nextHash, 'nextRefreshToken');
    return this.#db.transaction().execute(async (trx): Promise<RefreshOutcome> => {
      const used = await trx
        .updateTable('oauth_refresh_tokens')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .returning('family_id')
        .executeTakeFirst();
      if (!used) {
        const known = await trx
          .selectFrom('oauth_refresh_tokens')
          .select('family_id')
          .where('token_hash', '=', tokenHash)
          .executeTakeFirst();
        if (!known) return { kind: 'unknown' };
        await revokeRefreshFamily(trx, known.family_id, now);
        return { kind: 'reused', familyId: known.family_id };
      }
      const family = await trx
        .selectFrom('oauth_refresh_families')
        .selectAll()
        .where('id', '=', used.family_id)
        .forUpdate()
        .executeTakeFirst();
      if (!family || family.expires_at.getTime() <= now.getTime()) return { kind: 'unknown' };
      if (family.revoked_at !== null) return { kind: 'reused', familyId: family.id };
      await trx
        .insertInto('oauth_refresh_tokens')
        .values({ token_hash: nextHash, family_id: family.id, created_at: now, used_at: null })
        .execute();
      // The family ends no later than the key that consented (its starter saw to it).
      return { kind: 'rotated', familyId: family.id, grant: grantOfFamily(family) };
    });
  }

  async revokeFamily(familyId: string, now: Date): Promise<void> {
    if (!isUuid(familyId)) return;
    await this.#db.transaction().execute((trx) => revokeRefreshFamily(trx, familyId, now));
  }
}
