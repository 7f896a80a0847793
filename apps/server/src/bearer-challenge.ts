/**
 * The `WWW-Authenticate` challenges of the MCP endpoint (RFC 6750 §3, RFC 9728 §5.1, MCP
 * 2025-11-25 authorization): where the protected-resource metadata lives and which scopes to
 * ask for, so an OAuth client can find the authorization server from a 401 alone. Without an
 * authorization server (no OAUTH_REDIRECT_BASE_URL) the challenge is a bare `Bearer`.
 */
export interface BearerChallenges {
  /** The challenge of a 401: no credential, or one that is not valid. */
  unauthorized(): string;
  /** The challenge of a 403 for a token that lacks a scope (step-up authorization). */
  insufficientScope(scopes: readonly string[]): string;
}

/** Challenges that name a protected-resource metadata URL and the scopes a client should ask for. */
export function bearerChallenges(resourceMetadataUrl: string | undefined, defaultScopes: readonly string[]): BearerChallenges {
  const metadata = resourceMetadataUrl === undefined ? '' : `, resource_metadata="${resourceMetadataUrl}"`;
  return {
    unauthorized: () =>
      resourceMetadataUrl === undefined
        ? 'Bearer'
        : `Bearer resource_metadata="${resourceMetadataUrl}", scope="${defaultScopes.join(' ')}"`,
    insufficientScope: (scopes) =>
      `Bearer error="insufficient_scope", scope="${scopes.join(' ')}"${metadata}, error_description="the token lacks a scope this tool needs"`,
  };
}

/** The challenges of a server without an authorization server. */
export const BARE_BEARER: BearerChallenges = bearerChallenges(undefined, []);
