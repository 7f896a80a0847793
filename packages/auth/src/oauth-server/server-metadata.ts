import { OAUTH_SCOPES } from './oauth-policy.js';

/** Where the authorization server and the MCP resource it protects are reached. */
export interface ServerAddresses {
  readonly issuer: string;
  readonly resource: string;
}

/** The paths of the authorization server's endpoints, under its issuer. */
export const OAUTH_ENDPOINTS = Object.freeze({
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
});

/**
 * Where a GitHub or Google sign-in started from the consent page comes back to. A login that
 * returns here is a consent sign-in (SessionPurpose `consent-sign-in`), not a memsvc session.
 */
export const OAUTH_CONSENT_RESUME_PATH = `${OAUTH_ENDPOINTS.authorize}/resume`;

/** RFC 8414 authorization-server metadata, served at `/.well-known/oauth-authorization-server`. */
export function authorizationServerMetadata(server: ServerAddresses, documents: boolean): Record<string, unknown> {
  return {
    issuer: server.issuer,
    authorization_endpoint: `${server.issuer}${OAUTH_ENDPOINTS.authorize}`,
    token_endpoint: `${server.issuer}${OAUTH_ENDPOINTS.token}`,
    registration_endpoint: `${server.issuer}${OAUTH_ENDPOINTS.register}`,
    scopes_supported: OAUTH_SCOPES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: documents,
  };
}

/** RFC 9728 protected-resource metadata of the MCP endpoint. */
export function protectedResourceMetadata(server: ServerAddresses): Record<string, unknown> {
  return {
    resource: server.resource,
    authorization_servers: [server.issuer],
    scopes_supported: OAUTH_SCOPES,
    bearer_methods_supported: ['header'],
    resource_name: 'memsvc',
  };
}

/** Where the protected-resource metadata of the MCP endpoint lives (RFC 9728 §3.1: the path inserted). */
export function resourceMetadataUrl(server: ServerAddresses): string {
  return `${server.issuer}/.well-known/oauth-protected-resource/mcp`;
}

/** The MCP resource of a server whose public base URL (OAUTH_REDIRECT_BASE_URL) is `base`: `<base>/mcp`. */
export function mcpResourceOf(base: string): string {
  return `${issuerOf(base)}/mcp`;
}

/** The issuer of a server whose public base URL is `base`: the URL without a trailing slash. */
export function issuerOf(base: string): string {
  return base.replace(/\/+$/, '');
}
