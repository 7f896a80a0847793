import type { IdentityProvider, PendingAuthorization } from '@memsvc/access';
import {
  type ApiKeyAuthenticator,
  type AuthorizationServer,
  type ConsentSigner,
  type IssuedSession,
  LOGIN_STATE_COOKIE,
  type LoginFlow,
  OAUTH_CONSENT_RESUME_PATH,
  OAUTH_ENDPOINTS,
  OAUTH_LIFETIMES,
  OAuthRefusal,
  type SessionTokens,
  startedInThisBrowser,
} from '@memsvc/auth';
import type { Logger } from '@memsvc/runtime';
import type { Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { authorizeErrorPage, authorizePage, authorizePageHeaders, type SignedIn } from './authorize-page.js';
import { formOrJsonBody, mediaType } from './oauth-request-body.js';

/** Ties a consent form to the browser that opened the authorize page (CSRF): it holds the request's handle. */
export const CONSENT_COOKIE = 'memsvc_oauth_consent';
/** The GitHub or Google sign-in a person made to consent, until they decide (a consent sign-in token, HttpOnly). */
export const SIGN_IN_COOKIE = 'memsvc_oauth_signin';
/** Where a login started from the authorize page comes back to (LoginFlow's `redirectTo`). */
export const OAUTH_RESUME_PATH = OAUTH_CONSENT_RESUME_PATH;

export interface ConsentRouteDependencies {
  readonly server: AuthorizationServer;
  readonly apiKeys: ApiKeyAuthenticator;
  readonly sessions: SessionTokens;
  /** GitHub and Google, when enabled: offered on the authorize page besides an API key. */
  readonly logins?: LoginFlow | undefined;
  readonly logger: Logger;
  readonly secureCookies: boolean;
}

/** Both cookies live under /oauth/ only, for the ten minutes a request may wait. */
function oauthCookie(secure: boolean) {
  return { httpOnly: true, secure, sameSite: 'Lax', path: '/oauth/' } as const;
}

/**
 * The end of a login started from the authorize page (the /auth/<provider>/callback route calls
 * it): the session goes into an HttpOnly cookie under /oauth/, and the browser back to the
 * waiting request, where the person sees who they are signed in as and decides.
 */
export function resumeConsent(c: Context, session: IssuedSession, secureCookies: boolean): Response {
  setCookie(c, SIGN_IN_COOKIE, session.token, { ...oauthCookie(secureCookies), maxAge: OAUTH_LIFETIMES.pending });
  return c.redirect(OAUTH_RESUME_PATH, 303);
}

/**
 * The consent page (docs/security.md, "MCP clients: OAuth"): `GET /oauth/authorize` checks the
 * request and shows it; `GET /oauth/login/<provider>` signs the person in with GitHub or Google
 * and returns to `GET /oauth/authorize/resume`; `POST /oauth/authorize` takes the decision, signed
 * in with an API key or that login. Every form is tied to its browser by CONSENT_COOKIE.
 */
export function registerConsentRoutes(app: Hono, deps: ConsentRouteDependencies): void {
  const { server, apiKeys, sessions, logins, logger } = deps;
  const cookie = oauthCookie(deps.secureCookies);
  const providers = (): IdentityProvider[] => logins?.enabledProviders() ?? [];
  const refusedPage = (c: Context, status: 400 | 403, message: string) =>
    c.html(authorizeErrorPage(message), status, authorizePageHeaders(undefined));
  const gone = (c: Context) => refusedPage(c, 400, 'This authorization request is unknown, expired or already answered.');

  /** The request this browser is deciding, when its cookie names one that still waits. */
  const waiting = async (c: Context, handle: string | undefined): Promise<PendingAuthorization | undefined> => {
    if (!handle || !startedInThisBrowser(getCookie(c, CONSENT_COOKIE), handle)) return undefined;
    return server.pending(handle);
  };
  /** Who the sign-in cookie says is signed in: a consent sign-in only, unless it expired or was ended by a decision. */
  const signedIn = async (c: Context): Promise<(SignedIn & { scopes: ConsentSigner['scopes'] }) | undefined> => {
    const token = getCookie(c, SIGN_IN_COOKIE);
    const claims = token ? await sessions.verify(token, ['consent-sign-in']) : undefined;
    if (!claims || claims.origin === 'api-key') return undefined;
    return { userId: claims.userId, via: claims.origin, scopes: claims.scopes };
  };
  const show = async (c: Context, handle: string, request: PendingAuthorization, status: 200 | 401, error?: string) => {
    const client = await server.client(request.clientId).catch(() => undefined);
    if (!client) return refusedPage(c, 400, 'The client of this request can no longer be described.');
    const person = await signedIn(c);
    const page = authorizePage({ client, request, handle, providers: providers(), signedIn: person, error });
    return c.html(page, status, authorizePageHeaders(request.redirectUri));
  };

  app.get(OAUTH_ENDPOINTS.authorize, async (c) => {
    const params = new URL(c.req.url).searchParams;
    try {
      const { handle, client, request } = await server.authorize(params);
      setCookie(c, CONSENT_COOKIE, handle, { ...cookie, maxAge: OAUTH_LIFETIMES.pending });
      const page = authorizePage({ client, request, handle, providers: providers(), signedIn: undefined });
      return c.html(page, 200, authorizePageHeaders(request.redirectUri));
    } catch (error) {
      if (!(error instanceof OAuthRefusal)) throw error;
      logger.info(
        { event: 'oauth_authorize_refused', error: error.code, clientId: params.get('client_id') },
        'authorization request refused',
      );
      // Shown, never redirected: the redirect URI is the client's own claim (RFC 9700 §4.11.2).
      return c.html(authorizeErrorPage(error.message), 400, authorizePageHeaders(undefined));
    }
  });

  app.get(`${OAUTH_ENDPOINTS.authorize}/resume`, async (c) => {
    const handle = getCookie(c, CONSENT_COOKIE);
    const request = await waiting(c, handle);
    if (!handle || !request) return gone(c);
    if (!(await signedIn(c)))
      return refusedPage(c, 403, 'The sign-in did not complete in this browser. Go back to the application and start again.');
    return show(c, handle, request, 200);
  });

  app.get('/oauth/login/:provider', async (c) => {
    const provider = providers().find((name) => name === c.req.param('provider'));
    if (!provider || !logins) return refusedPage(c, 400, 'This sign-in is not enabled on this server.');
    if (!(await waiting(c, getCookie(c, CONSENT_COOKIE)))) return gone(c);
    const { authorizationUrl, state, stateTtlSeconds } = await logins.start(provider, { redirectTo: OAUTH_RESUME_PATH });
    // The same login cookie as /auth/<provider>/login: the callback checks it (login CSRF).
    setCookie(c, LOGIN_STATE_COOKIE, state, { ...cookie, path: '/auth/', maxAge: Math.floor(stateTtlSeconds) });
    return c.redirect(authorizationUrl, 302);
  });

  app.post(OAUTH_ENDPOINTS.authorize, async (c) => {
    if (mediaType(c) !== 'application/x-www-form-urlencoded') return refusedPage(c, 400, 'The consent form was not sent as a form.');
    const body = await formOrJsonBody(c);
    if ('refusal' in body) return refusedPage(c, 400, body.refusal.message);
    const form = new URLSearchParams(body.text);
    const handle = form.get('handle') ?? '';
    if (!startedInThisBrowser(getCookie(c, CONSENT_COOKIE), handle)) {
      return refusedPage(c, 403, 'This consent was not started in this browser (or its cookie is gone).');
    }
    const request = await server.pending(handle);
    if (!request) return gone(c);
    const finish = async (signer: ConsentSigner | 'denied') => {
      // The consent sign-in was for this decision: it ends with it, whichever way it goes.
      const signInToken = getCookie(c, SIGN_IN_COOKIE);
      if (signInToken) await sessions.revoke(signInToken, ['consent-sign-in']);
      const location = await server.decide(handle, signer);
      if (!location) return gone(c);
      setCookie(c, CONSENT_COOKIE, '', { ...cookie, maxAge: 0 });
      setCookie(c, SIGN_IN_COOKIE, '', { ...cookie, maxAge: 0 });
      return c.redirect(location, 303);
    };
    if (form.get('decision') !== 'approve') {
      logger.info({ event: 'oauth_consent', decision: 'denied', clientId: request.clientId }, 'OAuth consent denied');
      return finish('denied');
    }
    const presentedKey = form.get('api_key') ?? '';
    if (presentedKey === '') {
      const person = await signedIn(c);
      if (!person) return show(c, handle, request, 401, 'Sign in first: with your API key, or with GitHub or Google.');
      logger.info({ event: 'oauth_consent', decision: 'approved', clientId: request.clientId, via: person.via }, 'OAuth consent given');
      return finish({
        userId: person.userId,
        organizationId: null,
        scopes: person.scopes,
        origin: person.via,
        apiKeyId: null,
        // Set by decide: the grant hangs on a session of its own, not on this short sign-in.
        notAfter: null,
        signInJti: null,
      });
    }
    const key = await apiKeys.authenticate(presentedKey);
    if (!key) return show(c, handle, request, 401, 'That is not a valid API key (unknown, revoked or expired).');
    logger.info({ event: 'oauth_consent', decision: 'approved', clientId: request.clientId, keyId: key.id }, 'OAuth consent given');
    return finish({
      userId: key.userId,
      organizationId: key.organizationId,
      scopes: key.scopes,
      origin: 'api-key',
      apiKeyId: key.id,
      notAfter: key.expiresAt,
      signInJti: null,
    });
  });
}
