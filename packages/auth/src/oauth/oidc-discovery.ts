import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';
import * as oauth from 'oauth4webapi';
import { LoginRefused } from './login-refused.js';
import { PROVIDER_TIMEOUT_MS, type ProviderTransport, requestOptions } from './oauth-requests.js';

/** What discovery tells about an OpenID provider: its endpoints, and the keys its ID tokens are signed with. */
export interface DiscoveredProvider {
  readonly as: oauth.AuthorizationServer & { readonly authorization_endpoint: string; readonly jwks_uri: string };
  /** jose's key resolver for `jwks_uri`; it caches the keys and refetches when a `kid` is new. */
  readonly keys: JWTVerifyGetKey;
}

/**
 * OpenID Connect discovery (`<issuer>/.well-known/openid-configuration`), fetched on first use and
 * kept for the life of the process: the document names the issuer, so one whose issuer differs
 * from the configured one is refused. A failed fetch is not kept, so the next login tries again.
 */
export function oidcDiscovery(issuer: string, transport: ProviderTransport): () => Promise<DiscoveredProvider> {
  let pending: Promise<DiscoveredProvider> | undefined;

  async function discover(): Promise<DiscoveredProvider> {
    const issuerUrl = new URL(issuer);
    const response = await oauth.discoveryRequest(issuerUrl, { ...requestOptions(transport), algorithm: 'oidc' });
    const as = await oauth.processDiscoveryResponse(issuerUrl, response);
    const { authorization_endpoint, token_endpoint, jwks_uri } = as;
    if (typeof authorization_endpoint !== 'string' || typeof token_endpoint !== 'string' || typeof jwks_uri !== 'string') {
      throw new LoginRefused('provider-error', 'discovery: the document lacks an authorization, token or JWKS endpoint');
    }
    const keys = createRemoteJWKSet(new URL(jwks_uri), {
      timeoutDuration: PROVIDER_TIMEOUT_MS,
      ...(transport.fetch ? { [customFetch]: transport.fetch } : {}),
    });
    return { as: { ...as, authorization_endpoint, jwks_uri }, keys };
  }

  return () => {
    pending ??= discover().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
