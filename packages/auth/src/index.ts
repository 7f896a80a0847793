import { createHash, timingSafeEqual } from 'node:crypto';
import type { Secret } from '@memsvc/access';

export type { ApiKeyAuthenticatorOptions } from './api-key-authenticator.js';
export { ApiKeyAuthenticator, KEY_USE_FLUSH_MS } from './api-key-authenticator.js';
export type { MintedApiKey } from './api-key-secret.js';
export { API_KEY_PREFIX, API_KEY_VISIBLE_LENGTH, hashApiKey, looksLikeApiKey, mintApiKey } from './api-key-secret.js';
export { bearerToken } from './bearer-token.js';
export { issueKeySession } from './key-session.js';
export type { GitHubClientOptions, GitHubEndpoints } from './oauth/github-client.js';
export { GITHUB_ENDPOINTS, githubClient } from './oauth/github-client.js';
export type { GoogleClientOptions } from './oauth/google-client.js';
export { GOOGLE_ISSUER, googleClient } from './oauth/google-client.js';
export { LOGIN_STATE_COOKIE, startedInThisBrowser } from './oauth/login-browser.js';
export type { CallbackParameters, LoginFlowOptions } from './oauth/login-flow.js';
export { LoginFlow } from './oauth/login-flow.js';
export type { LoginRefusalReason } from './oauth/login-refused.js';
export { isLoginRefused, LoginRefused } from './oauth/login-refused.js';
export type { ProviderTransport } from './oauth/oauth-requests.js';
export type { AuthorizationRequest, CodeExchange, OAuthProviderClient } from './oauth/provider-client.js';
export type { AuthorizationServerOptions, ConsentSigner, TokenResponse } from './oauth-server/authorization-server.js';
export { AuthorizationServer } from './oauth-server/authorization-server.js';
export type { ClientMetadataDocumentsOptions, HostResolver } from './oauth-server/client-metadata-documents.js';
export {
  CLIENT_METADATA_MAX_BYTES,
  CLIENT_METADATA_TIMEOUT_MS,
  ClientMetadataDocuments,
} from './oauth-server/client-metadata-documents.js';
export { OAUTH_LIFETIMES, OAUTH_SCOPES } from './oauth-server/oauth-policy.js';
export type { OAuthErrorCode } from './oauth-server/oauth-refusal.js';
export { OAuthRefusal } from './oauth-server/oauth-refusal.js';
export { verifierMatches } from './oauth-server/pkce.js';
export { isPublicAddress } from './oauth-server/public-address.js';
export {
  authorizationServerMetadata,
  issuerOf,
  mcpResourceOf,
  OAUTH_CONSENT_RESUME_PATH,
  OAUTH_ENDPOINTS,
  protectedResourceMetadata,
  resourceMetadataUrl,
} from './oauth-server/server-metadata.js';
export type {
  IssuedSession,
  OAuthTokenBinding,
  SessionClient,
  SessionIssuer,
  SessionPurpose,
  SessionSubject,
} from './session-subject.js';
export type { SessionClaims, SessionTokenKind, SessionTokensOptions } from './session-tokens.js';
export {
  CONSENT_SIGN_IN_AUDIENCE,
  CONSENT_SIGN_IN_SECONDS,
  looksLikeJwt,
  SESSION_AUDIENCE,
  SESSION_ISSUER,
  SessionTokens,
} from './session-tokens.js';

/**
 * Compares a presented token with a configured secret in constant time (spec §5.6: admin
 * tokens; also METRICS_TOKEN). Both sides are hashed first, so neither the comparison time nor
 * an early length check tells an attacker anything about the configured value. An unset secret
 * denies everything.
 */
export function secretMatches(configured: Secret | undefined, presented: unknown): boolean {
  if (configured === undefined || typeof presented !== 'string' || presented.length === 0) return false;
  const expected = createHash('sha256').update(configured.reveal()).digest();
  const actual = createHash('sha256').update(presented).digest();
  return timingSafeEqual(expected, actual);
}

/** The `MCP_ADMIN_TOKEN` check of every admin tool (spec §5.6). */
export const adminTokenMatches = secretMatches;

/** Why an admin call is denied, as its `admin_auth_denied` line says. */
export type AdminTokenDenial = 'admin-tools-disabled' | 'missing-token' | 'wrong-token';

/**
 * Spec §5.6 for every admin action, a tool or a dashboard form: why the presented token is
 * refused, or undefined when it matches MCP_ADMIN_TOKEN (compared in constant time).
 */
export function adminTokenDenial(configured: Secret | undefined, presented: string | undefined): AdminTokenDenial | undefined {
  if (configured === undefined) return 'admin-tools-disabled';
  if (!presented) return 'missing-token';
  return adminTokenMatches(configured, presented) ? undefined : 'wrong-token';
}
