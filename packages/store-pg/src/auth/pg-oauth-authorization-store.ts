import type {
  CodeGrant,
  CodeRedemption,
  NewRefreshFamily,
  OAuthAuthorizationStore,
  PendingAuthorization,
  Scope,
  SessionOrigin,
} from '@memsvc/access';
import { type Clock, MemsvcError, type TenantId } from '@memsvc/core';
import type { Kysely, Selectable } from 'kysely';
import { isUuid } from '../ids/uuid-v7.js';
import type { MemsvcDatabase, OAuthCodesTable } from '../schema/database-schema.js';
import { checkAuthorizationBinding, checkDigest, checkFuture, checkState, checkSubject, isDigest } from './oauth-row-checks.js';
import { insertRefreshFamily, revokeRefreshFamily } from './refresh-families.js';

/** The dependencies of PgOAuthAuthorizationStore. */
export interface PgOAuthAuthorizationStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
  readonly clock: Clock;
}

/**
 * Authorization requests waiting for consent (`oauth_pending_authorizations`) and issued codes
 * (`oauth_codes`), each under the SHA-256 of its secret. A pending request is consumed by one
 * DELETE … RETURNING; a code by one conditional UPDATE that marks it redeemed, in the transaction
 * that starts its refresh family, so it is used at most once and a second use, recognised until
 * the code expires, always finds the family to revoke. An expired row is deleted when it is
 * presented, and by the auth-store sweep otherwise.
 */
export class PgOAuthAuthorizationStore implements OAuthAuthorizationStore {
  readonly #db: Kysely<MemsvcDatabase>;
  readonly #clock: Clock;

  constructor(options: PgOAuthAuthorizationStoreOptions) {
    this.#db = options.db;
    this.#clock = options.clock;
  }

  async savePending(handleHash: string, request: PendingAuthorization, expiresAt: Date): Promise<void> {
    const now = this.#clock.now();
    checkDigest(handleHash, 'handle');
    const scopes = checkAuthorizationBinding(request);
    checkState(request.state);
    checkFuture(expiresAt, now);
    await this.#db
      .insertInto('oauth_pending_authorizations')
      .values({
        handle_hash: handleHash,
        client_id: request.clientId,
        redirect_uri: request.redirectUri,
        code_challenge: request.codeChallenge,
        resource: request.resource,
        scopes,
        state: request.state,
        created_at: now,
        expires_at: expiresAt,
      })
      .execute();
  }

  async findPending(handleHash: string, now: Date): Promise<PendingAuthorization | undefined> {
    if (!isDigest(handleHash)) return undefined;
    const row = await this.#db
      .selectFrom('oauth_pending_authorizations')
      .selectAll()
      .where('handle_hash', '=', handleHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row ? toPending(row) : undefined;
  }

  async consumePending(handleHash: string, now: Date): Promise<PendingAuthorization | undefined> {
    if (!isDigest(handleHash)) return undefined;
    const row = await this.#db
      .deleteFrom('oauth_pending_authorizations')
      .where('handle_hash', '=', handleHash)
      .returningAll()
      .executeTakeFirst();
    return row && row.expires_at.getTime() > now.getTime() ? toPending(row) : undefined;
  }

  async saveCode(codeHash: string, grant: CodeGrant, expiresAt: Date): Promise<void> {
    const now = this.#clock.now();
    checkDigest(codeHash, 'code');
    const scopes = checkAuthorizationBinding(grant);
    checkSubject(grant);
    checkFuture(expiresAt, now);
    await this.#db
      .insertInto('oauth_codes')
      .values({
        code_hash: codeHash,
        client_id: grant.clientId,
        redirect_uri: grant.redirectUri,
        code_challenge: grant.codeChallenge,
        resource: grant.resource,
        scopes,
        user_id: grant.userId,
        organization_id: grant.organizationId,
        origin: grant.origin,
        api_key_id: grant.apiKeyId,
        not_after: grant.notAfter,
        sign_in_jti: grant.signInJti,
        created_at: now,
        expires_at: expiresAt,
      })
      .execute();
  }

  async consumeCode(codeHash: string, family: NewRefreshFamily, now: Date): Promise<CodeRedemption> {
    if (!isUuid(family.id)) throw new MemsvcError('INVALID_INPUT', 'familyId must be a UUID', { field: 'familyId' });
    checkDigest(family.tokenHash, 'refreshToken');
    checkFuture(family.expiresAt, now);
    if (!isDigest(codeHash)) return { kind: 'unknown' };
    return this.#db.transaction().execute(async (trx): Promise<CodeRedemption> => {
      // The row lock of one conditional UPDATE decides racing redemptions: one sets redeemed_at,
      // and holds the lock until its family is inserted, so the others see both or neither.
      const row = await trx
        .updateTable('oauth_codes')
        .set({ redeemed_at: now, family_id: family.id })
        .where('code_hash', '=', codeHash)
        .where('redeemed_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (row && row.expires_at.getTime() > now.getTime()) {
        const grant = toCodeGrant(row);
        // The family ends no later than the key (or login) that consented.
        const ends = Math.min(family.expiresAt.getTime(), grant.notAfter?.getTime() ?? Number.POSITIVE_INFINITY);
        await insertRefreshFamily(trx, { id: family.id, grant, tokenHash: family.tokenHash, expiresAt: new Date(ends) }, now);
        return { kind: 'granted', grant };
      }
      if (row) {
        await trx.deleteFrom('oauth_codes').where('code_hash', '=', codeHash).execute();
        return { kind: 'unknown' };
      }
      const used = await trx.selectFrom('oauth_codes').select('family_id').where('code_hash', '=', codeHash).executeTakeFirst();
      if (!used?.family_id) return { kind: 'unknown' };
      // A code presented twice was intercepted or replayed: what its first use obtained ends now
      // (RFC 6749 §4.1.2, OAuth 2.1 §4.1.3), the family and its live access tokens.
      await revokeRefreshFamily(trx, used.family_id, now);
      return { kind: 'reused', familyId: used.family_id };
    });
  }
}

function toCodeGrant(row: Selectable<OAuthCodesTable>): CodeGrant {
  return {
    clientId: row.client_id,
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    resource: row.resource,
    scopes: row.scopes as Scope[],
    userId: row.user_id as TenantId,
    organizationId: row.organization_id,
    origin: row.origin as SessionOrigin,
    apiKeyId: row.api_key_id,
    notAfter: row.not_after,
    signInJti: row.sign_in_jti,
  };
}

function toPending(row: {
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scopes: string[];
  state: string | null;
}): PendingAuthorization {
  return {
    clientId: row.client_id,
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    resource: row.resource,
    scopes: row.scopes as Scope[],
    state: row.state,
  };
}
