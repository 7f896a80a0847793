import { authorizationServerMetadata, OAUTH_ENDPOINTS, OAuthRefusal, protectedResourceMetadata } from '@memsvc/auth';
import { OAuthMetadataSchema, OAuthProtectedResourceMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Context, Hono } from 'hono';
import { clientOf } from './auth-routes.js';
import { type ConsentRouteDependencies, registerConsentRoutes } from './oauth-consent-routes.js';
import { formOrJsonBody, mediaType } from './oauth-request-body.js';

export interface OAuthRouteDependencies extends ConsentRouteDependencies {
  /** Whether client metadata documents are accepted (advertised in the metadata). */
  readonly documents: boolean;
}

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
/** The rest of an oversized body is not read, so its connection cannot carry another request. */
const UNREAD_BODY = { ...NO_STORE, Connection: 'close' };
/** Metadata is public: clients may cache it a while. */
const PUBLIC_JSON = { 'Cache-Control': 'max-age=300' };

function oauthError(c: Context, refusal: OAuthRefusal) {
  return c.json(refusal.toResponseObject(), refusal.status, NO_STORE);
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
  const { server, logger } = deps;
  // Checked once against the SDK's schemas, which its clients parse them with: a document they
  // would refuse fails the server's start, not a client's discovery.
  const resourceMetadata = OAuthProtectedResourceMetadataSchema.parse(protectedResourceMetadata(server));
  app.get('/.well-known/oauth-protected-resource', (c) => c.json(resourceMetadata, 200, PUBLIC_JSON));
  app.get('/.well-known/oauth-protected-resource/mcp', (c) => c.json(resourceMetadata, 200, PUBLIC_JSON));
  const metadata = OAuthMetadataSchema.parse(authorizationServerMetadata(server, deps.documents));
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

  registerConsentRoutes(app, deps);

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
