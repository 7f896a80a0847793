import {
  type ApiKeyAuthenticator,
  type AuthorizationServer,
  authorizationServerMetadata,
  OAUTH_ENDPOINTS,
  OAUTH_LIFETIMES,
  OAuthRefusal,
  protectedResourceMetadata,
  startedInThisBrowser,
} from '@memsvc/auth';
import type { Logger } from '@memsvc/runtime';
import type { Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { clientOf } from './auth-routes.js';
import { authorizeErrorPage, authorizePage, authorizePageHeaders } from './authorize-page.js';
import { readBoundedBody } from './bounded-body.js';

/** A registration request, a token request or a consent form: a few kilobytes at most. */
export const OAUTH_BODY_MAX_BYTES = 16 * 1024;
/** Ties a consent form to the browser that opened the authorize page (CSRF): it holds the request's handle. */
export const CONSENT_COOKIE = 'memsvc_oauth_consent';

export interface OAuthRouteDependencies {
  readonly server: AuthorizationServer;
  readonly apiKeys: ApiKeyAuthenticator;
  readonly logger: Logger;
  readonly secureCookies: boolean;
  /** Whether client metadata documents are accepted (advertised in the metadata). */
  readonly documents: boolean;
}

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
/** The rest of an oversized body is not read, so its connection cannot carry another request. */
const UNREAD_BODY = { ...NO_STORE, Connection: 'close' };
/** Metadata is public and read by browser-based clients too. */
const PUBLIC_JSON = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'max-age=300' };

function oauthError(c: Context, refusal: OAuthRefusal) {
  return c.json(refusal.toResponseObject(), refusal.status, NO_STORE);
}

/** A body read in full and within the cap, or an OAuth error saying it was not. */
async function formOrJsonBody(c: Context): Promise<{ text: string } | { refusal: OAuthRefusal; status: 413 }> {
  const body = await readBoundedBody(c.req.raw.body, c.req.header('content-length'), OAUTH_BODY_MAX_BYTES);
  if (body.refused)
    return { refusal: new OAuthRefusal('invalid_request', `the request body exceeds ${OAUTH_BODY_MAX_BYTES} bytes`), status: 413 };
  return { text: body.bytes.toString('utf8') };
}

function mediaType(c: Context): string | undefined {
  return c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
}

/**
 * The authorization server's HTTP face (docs/security.md, "MCP clients: OAuth"):
 * - `GET /.well-known/oauth-protected-resource[/mcp]` (RFC 9728) and
 *   `GET /.well-known/oauth-authorization-server` (RFC 8414);
 * - `POST /oauth/register` (RFC 7591), `GET|POST /oauth/authorize` (the consent page),
 *   `POST /oauth/token`.
 * Routes parse and map; AuthorizationServer decides.
 */
export function registerOAuthRoutes(app: Hono, deps: OAuthRouteDependencies): void {
  const { server, apiKeys, logger } = deps;
  const resourceMetadata = protectedResourceMetadata(server);
  app.get('/.well-known/oauth-protected-resource', (c) => c.json(resourceMetadata, 200, PUBLIC_JSON));
  app.get('/.well-known/oauth-protected-resource/mcp', (c) => c.json(resourceMetadata, 200, PUBLIC_JSON));
  const metadata = authorizationServerMetadata(server, deps.documents);
  app.get('/.well-known/oauth-authorization-server', (c) => c.json(metadata, 200, PUBLIC_JSON));

  app.post(OAUTH_ENDPOINTS.register, async (c) => {
    const body = await formOrJsonBody(c);
    if ('refusal' in body)
      return c.json({ error: 'invalid_client_metadata', error_description: body.refusal.message }, body.status, UNREAD_BODY);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return oauthError(c, new OAuthRefusal('invalid_client_metadata', 'the registration request must be a JSON object'));
    }
    try {
      const registered = await server.register(parsed as Record<string, unknown>);
      logger.info({ event: 'oauth_client_registered', clientId: registered.client_id }, 'OAuth client registered');
      return c.json(registered, 201, NO_STORE);
    } catch (error) {
      if (error instanceof OAuthRefusal) return oauthError(c, error);
      throw error;
    }
  });

  const consentCookie = { httpOnly: true, secure: deps.secureCookies, sameSite: 'Lax', path: '/oauth/' } as const;

  app.get(OAUTH_ENDPOINTS.authorize, async (c) => {
    const params = new URL(c.req.url).searchParams;
    try {
      const { handle, client, request } = await server.authorize(params);
      setCookie(c, CONSENT_COOKIE, handle, { ...consentCookie, maxAge: OAUTH_LIFETIMES.pending });
      return c.html(authorizePage({ client, request, handle }), 200, authorizePageHeaders(request.redirectUri));
    } catch (error) {
      if (!(error instanceof OAuthRefusal)) throw error;
      logger.info(
        { event: 'oauth_authorize_refused', error: error.code, clientId: params.get('client_id') },
        'authorization request refused',
      );
      // Only once the client and its redirect URI checked out may the refusal go there.
      const redirectUri = params.get('redirect_uri');
      if (error.redirectable && redirectUri) return c.redirect(server.redirectWithError(redirectUri, error, params.get('state')), 302);
      return c.html(authorizeErrorPage(error.message), 400, authorizePageHeaders(undefined));
    }
  });

  app.post(OAUTH_ENDPOINTS.authorize, async (c) => {
    const refusedPage = (status: 400 | 403, message: string) =>
      c.html(authorizeErrorPage(message), status, authorizePageHeaders(undefined));
    if (mediaType(c) !== 'application/x-www-form-urlencoded') return refusedPage(400, 'The consent form was not sent as a form.');
    const body = await formOrJsonBody(c);
    if ('refusal' in body) return refusedPage(400, body.refusal.message);
    const form = new URLSearchParams(body.text);
    const handle = form.get('handle') ?? '';
    if (!startedInThisBrowser(getCookie(c, CONSENT_COOKIE), handle)) {
      return refusedPage(403, 'This consent was not started in this browser (or its cookie is gone).');
    }
    const request = await server.pending(handle);
    if (!request) return refusedPage(400, 'This authorization request is unknown, expired or already answered.');
    const finish = async (signer: Parameters<AuthorizationServer['decide']>[1]) => {
      const location = await server.decide(handle, signer);
      if (!location) return refusedPage(400, 'This authorization request is unknown, expired or already answered.');
      setCookie(c, CONSENT_COOKIE, '', { ...consentCookie, maxAge: 0 });
      return c.redirect(location, 303);
    };
    if (form.get('decision') !== 'approve') {
      logger.info({ event: 'oauth_consent', decision: 'denied', clientId: request.clientId }, 'OAuth consent denied');
      return finish('denied');
    }
    const key = await apiKeys.authenticate(form.get('api_key') ?? '');
    if (!key) {
      const client = await server.client(request.clientId).catch(() => undefined);
      if (!client) return refusedPage(400, 'The client of this request can no longer be described.');
      return c.html(
        authorizePage({ client, request, handle, error: 'That is not a valid API key (unknown, revoked or expired).' }),
        401,
        authorizePageHeaders(request.redirectUri),
      );
    }
    logger.info({ event: 'oauth_consent', decision: 'approved', clientId: request.clientId, keyId: key.id }, 'OAuth consent given');
    return finish({
      userId: key.userId,
      organizationId: key.organizationId,
      scopes: key.scopes,
      origin: 'api-key',
      apiKeyId: key.id,
      notAfter: key.expiresAt,
    });
  });

  app.post(OAUTH_ENDPOINTS.token, async (c) => {
    if (mediaType(c) !== 'application/x-www-form-urlencoded') {
      return oauthError(c, new OAuthRefusal('invalid_request', 'the token request must be application/x-www-form-urlencoded'));
    }
    const body = await formOrJsonBody(c);
    if ('refusal' in body) return c.json(body.refusal.toResponseObject(), body.status, UNREAD_BODY);
    const form = new URLSearchParams(body.text);
    try {
      const tokens = await server.token(form, clientOf(c));
      logger.info(
        { event: 'oauth_token_issued', grantType: form.get('grant_type'), clientId: form.get('client_id') },
        'OAuth tokens issued',
      );
      return c.json(tokens, 200, NO_STORE);
    } catch (error) {
      if (!(error instanceof OAuthRefusal)) throw error;
      logger.info({ event: 'oauth_token_refused', error: error.code, grantType: form.get('grant_type') }, 'OAuth token request refused');
      return oauthError(c, error);
    }
  });
}
