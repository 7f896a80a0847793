import { AuthorizationServer, ClientMetadataDocuments, type LoginFlow, OAUTH_SCOPES, resourceMetadataUrl } from '@memsvc/auth';
import type { Logger, MemsvcRuntime } from '@memsvc/runtime';
import { type BearerChallenges, bearerChallenges } from './bearer-challenge.js';
import type { OAuthRouteDependencies } from './oauth-routes.js';

/**
 * memsvc's authorization server for MCP clients, when it can run: the standard profile with a
 * JWT_SECRET (its access tokens are session JWTs) and OAUTH_REDIRECT_BASE_URL, the public URL
 * that is its issuer and, with `/mcp`, the resource its tokens are for. Without that URL there is
 * no way to know it from a request that a client could not forge (the Host header), so OAuth is
 * off: the well-known endpoints are 404 and a 401 carries a bare `Bearer` challenge.
 */
export function oauthRoutesOf(
  runtime: Pick<MemsvcRuntime, 'config' | 'store' | 'sessions' | 'clock' | 'apiKeys'>,
  logger: Logger,
  secureCookies: boolean,
  /** The server's GitHub and Google login, offered on the consent page when enabled. */
  logins: LoginFlow | undefined,
): (OAuthRouteDependencies & { challenges: BearerChallenges }) | undefined {
  const base = runtime.config.auth.oauthRedirectBaseUrl;
  if (!runtime.sessions || base === undefined) return undefined;
  const documents = new ClientMetadataDocuments({ allowedHosts: runtime.config.auth.oauthClientMetadataAllowedHosts });
  const server = new AuthorizationServer({
    issuer: base,
    clients: runtime.store.oauthClients,
    authorizations: runtime.store.oauthAuthorizations,
    refresh: runtime.store.oauthRefresh,
    sessions: runtime.sessions,
    clock: runtime.clock,
    documents,
  });
  return {
    server,
    apiKeys: runtime.apiKeys,
    sessions: runtime.sessions,
    logins,
    logger,
    secureCookies,
    documents: true,
    challenges: bearerChallenges(resourceMetadataUrl(server), OAUTH_SCOPES),
  };
}
