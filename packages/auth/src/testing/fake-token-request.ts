import type { LoopbackRequest } from './loopback-server.js';

/** A token request as a provider reads it: the form parameters and the client's credentials. */
export interface TokenRequest {
  readonly params: URLSearchParams;
  readonly clientId: string | undefined;
  readonly clientSecret: string | undefined;
  /** How the client authenticated; `multiple` is refused (RFC 6749 §2.3: one method per request). */
  readonly authMethod: 'client_secret_basic' | 'client_secret_post' | 'none' | 'multiple';
}

// RFC 6749 §2.3.1: the id and secret in a Basic header are form-encoded before base64.
function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

/**
 * Reads a token endpoint request: undefined unless it is a form post (a real token endpoint
 * refuses JSON). Credentials come from a Basic header or from the form, whichever was used.
 */
export function readTokenRequest(request: LoopbackRequest): TokenRequest | undefined {
  const contentType = request.headers['content-type'] ?? '';
  if (request.method !== 'POST' || !contentType.startsWith('application/x-www-form-urlencoded')) return undefined;
  const params = new URLSearchParams(request.body);
  const authorization = request.headers.authorization ?? '';
  const basic = /^Basic\s+(\S+)$/i.exec(authorization);
  const posted = params.has('client_secret');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { params, clientId: undefined, clientSecret: undefined, authMethod: 'none' };
    const clientId = formDecode(decoded.slice(0, colon));
    const clientSecret = formDecode(decoded.slice(colon + 1));
    return { params, clientId, clientSecret, authMethod: posted ? 'multiple' : 'client_secret_basic' };
  }
  return {
    params,
    clientId: params.get('client_id') ?? undefined,
    clientSecret: params.get('client_secret') ?? undefined,
    authMethod: posted ? 'client_secret_post' : 'none',
  };
}
