import type { AuthorizationGrant, Clock, OAuthRefreshStore, RefreshOutcome, Scope, SessionOrigin, TenantId } from '@memsvc/core';
import { MemsvcError } from '@memsvc/core';
import type { Kysely, Transaction } from 'kysely';
import { isUuid } from '../ids/uuid-v7.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { endLiveSessions } from './end-live-sessions.js';
import { checkClientId, checkDigest, checkFuture, checkGrantScopes, checkResource, checkSubject, isDigest } from './oauth-row-checks.js';

/** The dependencies of PgOAuthRefreshStore. */
export interface PgOAuthRefreshStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
  readonly clock: Clock;
}

/**
 * Refresh-token families (`oauth_refresh_families`) and their tokens (`oauth_refresh_tokens`,
 * by hash). A rotation marks the presented token used with a conditional UPDATE: of two racing
 * uses of one token, the second finds it used and revokes the family — which is what a
 * refresh token replayed by a thief looks like, whichever of the two is the thief.
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
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .insertInto('oauth_refresh_families')
        .values({
          id: familyId,
          client_id: grant.clientId,
          resource: grant.resource,
          scopes,
          user_id: grant.userId,
          organization_id: grant.organizationId,
          origin: grant.origin,
          api_key_id: grant.apiKeyId,
          sign_in_jti: grant.signInJti,
          created_at: now,
          expires_at: expiresAt,
          revoked_at: null,
        })
        .execute();
      await trx
        .insertInto('oauth_refresh_tokens')
        .values({ token_hash: tokenHash, family_id: familyId, created_at: now, used_at: null })
        .execute();
    });
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
        await revokeFamilyIn(trx, known.family_id, now);
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
      return {
        kind: 'rotated',
        familyId: family.id,
        grant: {
          clientId: family.client_id,
          resource: family.resource,
          scopes: family.scopes as Scope[],
          userId: family.user_id as TenantId,
          organizationId: family.organization_id,
          origin: family.origin as SessionOrigin,
          apiKeyId: family.api_key_id,
          // The family ends no later than the key that consented (startFamily's caller saw to it).
          notAfter: family.expires_at,
          signInJti: family.sign_in_jti,
        },
      };
    });
  }

  async revokeFamily(familyId: string, now: Date): Promise<void> {
    if (!isUuid(familyId)) return;
    await this.#db.transaction().execute((trx) => revokeFamilyIn(trx, familyId, now));
  }
}

/** Marks a family revoked (the first time stays) and ends the live access tokens issued from it. */
async function revokeFamilyIn(trx: Transaction<MemsvcDatabase>, familyId: string, now: Date): Promise<void> {
  await trx
    .updateTable('oauth_refresh_families')
    .set({ revoked_at: now })
    .where('id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
  await endLiveSessions(trx, { oauthFamilyId: familyId }, now);
}
