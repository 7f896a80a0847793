import type { LiveRefreshToken, OAuthRefreshStore, Scope } from '@memsvc/access';
import type { SessionTokens } from '../session-tokens.js';
import { OAuthRefusal } from './oauth-refusal.js';

/** What checking a refresh request reads and may end. */
export interface RefreshRequestDependencies {
  readonly refresh: OAuthRefreshStore;
  readonly sessions: SessionTokens;
}

/**
 * Checks a refresh request (OAuth 2.1 §4.3.1) against the grant of its token, returning the
 * scopes to issue. Run before the token is used, so a refusable request spends nothing, and
 * again after rotation for what may have ended in between. A token presented by another client,
 * or whose consenting sign-in has ended, ends its family (`invalid_grant`); a scope wider than
 * the grant (`invalid_scope`) or another resource (`invalid_target`) is refused and ends nothing.
 */
export async function checkRefreshRequest(
  form: URLSearchParams,
  token: LiveRefreshToken,
  askedScopes: readonly Scope[] | undefined,
  dependencies: RefreshRequestDependencies,
  now: Date,
): Promise<readonly Scope[]> {
  const { grant, familyId } = token;
  const refuseAndRevoke = async (refusal: OAuthRefusal) => {
    await dependencies.refresh.revokeFamily(familyId, now);
    return refusal;
  };
  if (form.get('client_id') !== grant.clientId)
    throw await refuseAndRevoke(new OAuthRefusal('invalid_grant', 'the refresh token was issued to another client'));
  const resource = form.get('resource');
  if (resource !== null && resource !== grant.resource)
    throw new OAuthRefusal('invalid_target', 'resource differs from the one authorized');
  // A refresh may narrow the scopes, never widen them.
  const scopes = askedScopes ?? grant.scopes;
  if (scopes.some((scope) => !grant.scopes.includes(scope)))
    throw new OAuthRefusal('invalid_scope', 'scope may not exceed what was granted');
  if (grant.signInJti !== null && (await dependencies.sessions.isEnded(grant.signInJti))) {
    throw await refuseAndRevoke(new OAuthRefusal('invalid_grant', 'the sign-in that consented has ended'));
  }
  return scopes;
}
