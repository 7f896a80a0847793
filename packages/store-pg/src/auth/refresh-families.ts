import type { AuthorizationGrant, Scope, SessionOrigin } from '@memsvc/access';
import { MemsvcError, type TenantId } from '@memsvc/core';
import type { Kysely, Selectable } from 'kysely';
import type { MemsvcDatabase, OAuthRefreshFamiliesTable } from '../schema/database-schema.js';
import { endLiveSessions } from './end-live-sessions.js';

/** A refresh family to insert: its grant, first token and end. */
export interface RefreshFamilyRow {
  readonly id: string;
  readonly grant: AuthorizationGrant;
  readonly tokenHash: string;
  readonly expiresAt: Date;
}

/**
 * Inserts a family and its first token in the caller's transaction: with the code's redemption
 * (so a replay that sees the code redeemed finds the family), or on its own (startFamily).
 */
export async function insertRefreshFamily(trx: Kysely<MemsvcDatabase>, family: RefreshFamilyRow, now: Date): Promise<void> {
  const { grant } = family;
  await trx
    .insertInto('oauth_refresh_families')
    .values({
      id: family.id,
      client_id: grant.clientId,
      resource: grant.resource,
      scopes: [...grant.scopes],
      user_id: grant.userId,
      organization_id: grant.organizationId,
      origin: grant.origin,
      api_key_id: grant.apiKeyId,
      sign_in_jti: grant.signInJti,
      created_at: now,
      expires_at: family.expiresAt,
      revoked_at: null,
    })
    .execute();
  await trx
    .insertInto('oauth_refresh_tokens')
    .values({ token_hash: family.tokenHash, family_id: family.id, created_at: now, used_at: null })
    .execute();
}

/** Marks a family revoked (the first time stays) and ends the live access tokens issued from it, in the caller's transaction. */
export async function revokeRefreshFamily(trx: Kysely<MemsvcDatabase>, familyId: string, now: Date): Promise<void> {
  await trx
    .updateTable('oauth_refresh_families')
    .set({ revoked_at: now })
    .where('id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
  await endLiveSessions(trx, { oauthFamilyId: familyId }, now);
}

/**
 * Reads the family an access token is issued from, in the issuing transaction, and locks its row
 * `FOR SHARE`. A revocation updates that row first, so under every interleaving either it waits
 * for the session insert to commit and then ends the new session with the family's others (its
 * next statement sees the row), or it committed first and this read finds the family revoked.
 * UNAUTHENTICATED naming `oauthFamilyId` when it is revoked, expired or another user's.
 */
export async function lockLiveFamily(trx: Kysely<MemsvcDatabase>, familyId: string, userId: string, now: Date): Promise<void> {
  const family = await trx
    .selectFrom('oauth_refresh_families')
    .select('user_id')
    .where('id', '=', familyId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .forShare()
    .executeTakeFirst();
  if (!family || family.user_id !== userId) {
    throw new MemsvcError(
      'UNAUTHENTICATED',
      'the refresh family is revoked (a code or refresh token of it was used twice) or has ended; no access token is issued from it',
      { field: 'oauthFamilyId' },
    );
  }
}

/** The grant a family row carries; `notAfter` is the family's end (never later than the key that consented). */
export function grantOfFamily(family: Selectable<OAuthRefreshFamiliesTable>): AuthorizationGrant {
  return {
    clientId: family.client_id,
    resource: family.resource,
    scopes: family.scopes as Scope[],
    userId: family.user_id as TenantId,
    organizationId: family.organization_id,
    origin: family.origin as SessionOrigin,
    apiKeyId: family.api_key_id,
    notAfter: family.expires_at,
    signInJti: family.sign_in_jti,
  };
}
