import { type Kysely, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/**
 * Whose live sessions to end: every one of a user's, those exchanged for given API keys, given
 * ones, the access tokens of an OAuth refresh family, or a user's sessions from a GitHub or Google login (those exchanged for no key: a session
 * does not record which provider account opened it).
 */
export type SessionsToEnd =
  | { readonly userId: string }
  | { readonly apiKeyIds: readonly string[] }
  | { readonly jtis: readonly string[] }
  | { readonly identityLoginsOf: string }
  | { readonly oauthFamilyId: string };

/**
 * Ends live sessions: marks them revoked and puts each `jti` on the denylist until its token would
 * have expired anyway (a later expiry already listed stays). Run it inside the caller's
 * transaction — with the revocation of the keys, when keys end them — so no moment exists where
 * the credential is gone and a session it opened still works. Returns the `jti`s of the sessions
 * it ended (not those already ended).
 */
export async function endLiveSessions(trx: Kysely<MemsvcDatabase>, which: SessionsToEnd, now: Date): Promise<string[]> {
  if ('apiKeyIds' in which && which.apiKeyIds.length === 0) return [];
  if ('jtis' in which && which.jtis.length === 0) return [];
  let live = trx.updateTable('sessions').set({ revoked_at: now }).where('expires_at', '>', now).where('revoked_at', 'is', null);
  if ('userId' in which) live = live.where('user_id', '=', which.userId);
  else if ('apiKeyIds' in which) live = live.where('api_key_id', 'in', which.apiKeyIds);
  else if ('jtis' in which) live = live.where('jti', 'in', which.jtis);
  else if ('oauthFamilyId' in which) live = live.where('oauth_family_id', '=', which.oauthFamilyId);
  else live = live.where('user_id', '=', which.identityLoginsOf).where('api_key_id', 'is', null);
  const ended = await live.returning(['jti', 'expires_at']).execute();
  if (ended.length > 0) {
    await trx
      .insertInto('jwt_denylist')
      .values(ended.map((session) => ({ jti: session.jti, expires_at: session.expires_at, created_at: now })))
      .onConflict((conflict) =>
        conflict.column('jti').doUpdateSet({ expires_at: sql<Date>`greatest(jwt_denylist.expires_at, excluded.expires_at)` }),
      )
      .execute();
  }
  const jtis = ended.map((session) => session.jti);
  await endGrantsSignedInWith(trx, jtis, now);
  return jtis;
}

/**
 * Ends the OAuth grants a person consented to while signed in with one of these sessions (a
 * GitHub or Google login on the consent page): their refresh families are revoked and their live
 * access tokens ended, so logging out, ending every session or blocking the account reaches the
 * clients too. Access tokens sign no one in, so this goes one level deep.
 */
export async function endGrantsSignedInWith(trx: Kysely<MemsvcDatabase>, jtis: readonly string[], now: Date): Promise<void> {
  if (jtis.length === 0) return;
  const families = await trx
    .updateTable('oauth_refresh_families')
    .set({ revoked_at: now })
    .where('sign_in_jti', 'in', jtis)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  for (const family of families) await endLiveSessions(trx, { oauthFamilyId: family.id }, now);
}
