import { getConnInfo } from '@hono/node-server/conninfo';
import { type IdentityProvider, isScope, SCOPES, type Scope } from '@memsvc/access';
import {
  type ApiKeyAuthenticator,
  bearerToken,
  issueKeySession,
  LOGIN_STATE_COOKIE,
  type LoginFlow,
  LoginRefused,
  type SessionClient,
  type SessionTokens,
  startedInThisBrowser,
} from '@memsvc/auth';
import type { Clock, MemsvcErrorCode } from '@memsvc/core';
import { httpStatusOf, type Logger } from '@memsvc/runtime';
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { type BoundedBody, readBoundedBody } from './bounded-body.js';
import { OAUTH_RESUME_PATH, resumeConsent } from './oauth-consent-routes.js';

/** A session request's body is a few scopes at most. */
const SESSION_BODY_MAX_BYTES = 4096;

export interface AuthRouteDependencies {
  readonly apiKeys: ApiKeyAuthenticator;
  readonly sessions: SessionTokens;
  /** Present when at least one identity provider is enabled. */
  readonly logins?: LoginFlow | undefined;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Whether cookies (the login's state) are `Secure`: everywhere but plain-HTTP development. */
  readonly secureCookies: boolean;
  /** The WWW-Authenticate of 401s: naming the protected-resource metadata when OAuth is on. */
  readonly challenge?: string | undefined;
}

type RefusalCode = Extract<MemsvcErrorCode, 'INVALID_INPUT' | 'UNAUTHENTICATED' | 'NOT_FOUND'>;

function answerRefusal(c: Context, status: 400 | 401 | 403 | 404, code: RefusalCode, message: string, challenge: string) {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  if (status === 401) headers['WWW-Authenticate'] = challenge;
  return c.json({ error: { code, message } }, status, headers);
}

/** A refusal: its status is the error code's (http-status-of-error.ts), a 401 carries the challenge. */
function refuse(c: Context, code: RefusalCode, message: string, challenge = 'Bearer') {
  return answerRefusal(c, httpStatusOf(code), code, message, challenge);
}

/** Where a session request came from: recorded with the session, never trusted for anything. */
export function clientOf(c: Context): SessionClient {
  let ipAddress: string | undefined;
  try {
    ipAddress = getConnInfo(c).remote.address;
  } catch {
    // Not served by the Node adapter (an in-process request): there is no socket to name.
  }
  return { userAgent: c.req.header('user-agent'), ipAddress };
}

/** The issued session as the client receives it. */
function sessionJson(session: Awaited<ReturnType<SessionTokens['issue']>>, now: Date) {
  return {
    token: session.token,
    tokenType: session.tokenType,
    expiresAt: session.expiresAt.toISOString(),
    expiresIn: Math.max(0, Math.round((session.expiresAt.getTime() - now.getTime()) / 1000)),
    userId: session.userId,
    organizationId: session.organizationId,
    scopes: session.scopes,
  };
}

/**
 * The scopes a session asks for: by default all of the key's; a body `{"scopes": [...]}` may
 * narrow them (a session for a read-only helper), never widen them.
 */
function requestedScopes(body: BoundedBody, held: readonly Scope[]): { scopes: readonly Scope[] } | { problem: string } {
  if (body.refused) return { problem: `the request body exceeds ${SESSION_BODY_MAX_BYTES} bytes` };
  if (body.bytes.length === 0) return { scopes: held };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.bytes.toString('utf8'));
  } catch {
    return { problem: 'the request body is not valid JSON' };
  }
  const asked = (parsed as { scopes?: unknown } | null)?.scopes;
  if (asked === undefined) return { scopes: held };
  if (!Array.isArray(asked) || asked.length === 0 || !asked.every((scope) => typeof scope === 'string' && isScope(scope))) {
    return { problem: `scopes must be a non-empty array of ${SCOPES.join(', ')}` };
  }
  const beyond = asked.filter((scope) => !held.includes(scope as Scope));
  if (beyond.length > 0) return { problem: `scopes asks for ${beyond.join(', ')}, which the API key does not hold` };
  return { scopes: [...new Set(asked as Scope[])] };
}

/**
 * The session endpoints (spec §5.10 leaves them to us; docs/security.md documents them):
 * - `POST /auth/session` with `Authorization: Bearer <API key>` → 201 and a session JWT;
 * - `GET /auth/session` with a session token → who it is for, until when;
 * - `POST /auth/logout` with a session token → 204, the token is denied on every replica;
 * - `GET /auth/providers` → the enabled identity providers;
 * - `GET /auth/<provider>/login` → 302 to the provider; `GET /auth/<provider>/callback` → the session.
 * Every refusal is 401 or 403 with a message that names no credential.
 */
export function registerAuthRoutes(app: Hono, deps: AuthRouteDependencies): void {
  const { apiKeys, sessions, logins, logger, clock } = deps;

  app.post('/auth/session', async (c) => {
    const token = bearerToken(c.req.header('authorization'));
    const refused = () =>
      refuse(c, 'UNAUTHENTICATED', 'a session is issued for a valid per-agent API key: send Authorization: Bearer <API key>');
    if (!token) return refused();
    // The body first, whose timing is the caller's; the key is checked once it has arrived, and
    // again when the session is written (the store locks the key's row): a key revoked while
    // this request was open opens nothing.
    const body = await readBoundedBody(c.req.raw.body, c.req.header('content-length'), SESSION_BODY_MAX_BYTES);
    const key = await apiKeys.authenticate(token);
    if (!key) return refused();
    const asked = requestedScopes(body, key.scopes);
    if ('problem' in asked) return refuse(c, 'INVALID_INPUT', asked.problem);
    const session = await issueKeySession(sessions, key, asked.scopes, clientOf(c));
    if (!session) return refused();
    logger.info({ event: 'session_issued', keyId: key.id, via: 'api-key' }, 'session issued');
    return c.json(sessionJson(session, clock.now()), 201, { 'Cache-Control': 'no-store' });
  });

  app.get('/auth/session', async (c) => {
    const token = bearerToken(c.req.header('authorization'));
    const claims = token ? await sessions.verify(token) : undefined;
    if (!claims)
      return refuse(c, 'UNAUTHENTICATED', 'the session token is not valid (expired, logged out or not issued here)', deps.challenge);
    return c.json(
      {
        userId: claims.userId,
        organizationId: claims.organizationId,
        scopes: claims.scopes,
        via: claims.origin,
        expiresAt: claims.expiresAt.toISOString(),
      },
      200,
      { 'Cache-Control': 'no-store' },
    );
  });

  app.post('/auth/logout', async (c) => {
    const token = bearerToken(c.req.header('authorization'));
    // Ending a token one holds takes nothing from anyone: an OAuth client may end its access token here too.
    const ended = token ? await sessions.revoke(token, ['session', 'access-token']) : undefined;
    if (!ended)
      return refuse(c, 'UNAUTHENTICATED', 'logout needs a valid session token: send Authorization: Bearer <session token>', deps.challenge);
    logger.info({ event: 'session_revoked', jti: ended.jti }, 'session logged out');
    return c.body(null, 204);
  });

  app.get('/auth/providers', (c) => c.json({ providers: logins?.enabledProviders() ?? [] }));

  // The login's state rides in a cookie from /login to /callback (login CSRF, login-browser.ts).
  const loginCookie = { httpOnly: true, secure: deps.secureCookies, sameSite: 'Lax', path: '/auth/' } as const;

  const providerOf = (c: Context): IdentityProvider | undefined => {
    const name = c.req.param('provider');
    return logins?.enabledProviders().find((provider) => provider === name);
  };
  const notEnabled = (c: Context) =>
    refuse(c, 'NOT_FOUND', `login with ${c.req.param('provider')} is not enabled on this server (see GET /auth/providers)`);

  app.get('/auth/:provider/login', async (c) => {
    const provider = providerOf(c);
    if (!provider || !logins) return notEnabled(c);
    const { authorizationUrl, state, stateTtlSeconds } = await logins.start(provider);
    setCookie(c, LOGIN_STATE_COOKIE, state, { ...loginCookie, maxAge: Math.floor(stateTtlSeconds) });
    return c.redirect(authorizationUrl, 302);
  });

  app.get('/auth/:provider/callback', async (c) => {
    const provider = providerOf(c);
    if (!provider || !logins) return notEnabled(c);
    try {
      const params = new URL(c.req.url).searchParams;
      const started = getCookie(c, LOGIN_STATE_COOKIE);
      if (started !== undefined) deleteCookie(c, LOGIN_STATE_COOKIE, loginCookie);
      if (!startedInThisBrowser(started, params.get('state'))) throw new LoginRefused('other-browser');
      const { session, redirectTo } = await logins.finishLogin(provider, params, clientOf(c));
      logger.info({ event: 'session_issued', via: provider }, 'session issued');
      // A login started from the OAuth consent page goes back to it, signed in.
      if (redirectTo === OAUTH_RESUME_PATH) return resumeConsent(c, session, deps.secureCookies);
      return c.json(sessionJson(session, clock.now()), 200, { 'Cache-Control': 'no-store' });
    } catch (error) {
      if (!(error instanceof LoginRefused)) throw error;
      logger.warn({ event: 'login_refused', provider, reason: error.reason }, 'login refused');
      // A refused login keeps its own status (login-refused.ts: 403 for a person known but not let
      // in, else 401) under the UNAUTHENTICATED code clients already read.
      return answerRefusal(c, error.status, 'UNAUTHENTICATED', error.message, 'Bearer');
    }
  });
}
