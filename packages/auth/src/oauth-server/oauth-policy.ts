import { isScope, type Scope } from '@memsvc/access';
import { OAuthRefusal } from './oauth-refusal.js';

/** The scopes an OAuth client may ask for: a person's memories. Keys and admin stay with keys and tokens. */
export const OAUTH_SCOPES: readonly Scope[] = Object.freeze(['memories:read', 'memories:write', 'memories:delete']);

/** Lifetimes, in seconds (docs/security.md). */
export const OAUTH_LIFETIMES = Object.freeze({
  /** A request waiting on the authorize page for a sign-in and consent. */
  pending: 600,
  /** An authorization code: the client exchanges it at once. */
  code: 60,
  /** An access token (a session JWT), at most; never longer than JWT_EXPIRES_IN. */
  accessToken: 3600,
  /** A refresh family, from consent: after it the person consents again. */
  refreshFamily: 30 * 24 * 3600,
});

/**
 * The scopes a request's `scope` parameter asks for, in canonical order: all of OAUTH_SCOPES when
 * it is absent or blank; `invalid_scope` for any other scope.
 */
export function requestedScopes(scope: string | null): Scope[] {
  if (scope === null || scope.trim() === '') return [...OAUTH_SCOPES];
  const asked = scope.split(' ').filter((entry) => entry !== '');
  const unknown = asked.filter((entry) => !isScope(entry) || !OAUTH_SCOPES.includes(entry));
  if (unknown.length > 0) throw new OAuthRefusal('invalid_scope', `scope may list only ${OAUTH_SCOPES.join(', ')}`);
  return OAUTH_SCOPES.filter((entry) => asked.includes(entry));
}
