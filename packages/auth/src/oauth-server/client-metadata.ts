import { redirectUriProblem } from '@memsvc/access';
import { OAuthRefusal } from './oauth-refusal.js';

/** Enough for a web client and a few native callbacks. */
export const MAX_REDIRECT_URIS = 10;
const CLIENT_NAME_MAX_LENGTH = 200;

/** The fields of a client's metadata (RFC 7591 §2) that memsvc uses, checked. */
export interface CheckedClientMetadata {
  readonly redirectUris: readonly string[];
  readonly clientName: string | null;
  readonly clientUri: string | null;
}

const badMetadata = (message: string) => new OAuthRefusal('invalid_client_metadata', message);

/**
 * Checks client metadata — a registration request's body or a metadata document — as RFC 7591
 * §2 and §3.2.2 say: redirect URIs (invalid_redirect_uri when one is unusable), the code and
 * refresh grants only; every client is public (`none`: memsvc issues no client secrets).
 * Unknown fields are ignored, as the RFC asks.
 */
export function checkClientMetadata(metadata: Record<string, unknown>): CheckedClientMetadata {
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS || !uris.every((uri) => typeof uri === 'string')) {
    throw new OAuthRefusal('invalid_redirect_uri', `redirect_uris must be an array of 1 to ${MAX_REDIRECT_URIS} URIs`);
  }
  for (const uri of uris as string[]) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthRefusal('invalid_redirect_uri', problem);
  }
  // A client asking for a secret (client_secret_post, …) is registered as public all the same and
  // told so in the response (RFC 7591 §3.2.1 lets the server replace a value): memsvc issues no
  // secrets, and PKCE protects the code. Some connectors ask for a secret by default.
  const method = metadata.token_endpoint_auth_method;
  if (method !== undefined && typeof method !== 'string') throw badMetadata('token_endpoint_auth_method must be a string');
  const grants = metadata.grant_types;
  if (
    grants !== undefined &&
    (!Array.isArray(grants) || !grants.every((grant) => grant === 'authorization_code' || grant === 'refresh_token'))
  ) {
    throw badMetadata('grant_types may list only authorization_code and refresh_token');
  }
  const responses = metadata.response_types;
  if (responses !== undefined && (!Array.isArray(responses) || !responses.every((type) => type === 'code'))) {
    throw badMetadata('response_types may list only code');
  }
  const name = metadata.client_name;
  if (name !== undefined && (typeof name !== 'string' || name.length > CLIENT_NAME_MAX_LENGTH)) {
    throw badMetadata(`client_name must be a string of at most ${CLIENT_NAME_MAX_LENGTH} characters`);
  }
  const home = metadata.client_uri;
  if (home !== undefined && (typeof home !== 'string' || !/^https:\/\//i.test(home) || redirectUriProblem(home) !== undefined)) {
    throw badMetadata('client_uri must be an https URL');
  }
  return {
    redirectUris: [...new Set(uris as string[])],
    clientName: typeof name === 'string' && name.trim() !== '' ? name : null,
    clientUri: typeof home === 'string' ? home : null,
  };
}
