import type { CredentialPrincipal } from '@memsvc/mcp-tools';
import type { MemsvcRuntime } from '@memsvc/runtime';

/** A credential's principal; `oauthClientId` is set when it is an OAuth access token (step-up applies). */
export type CallerCredential = CredentialPrincipal & { readonly oauthClientId?: string | undefined };

/** Who a bearer token is, if it is a usable per-agent API key or session JWT of this server. */
export type CredentialLookup = (token: string) => Promise<CallerCredential | undefined>;

/**
 * The principal of a credential: a per-agent API key (its user is the tenant, its scopes are
 * checked per tool) or a session JWT (likewise, from its claims; an OAuth access token is one).
 * Each kind is recognised by its shape before anything is read, and each is checked afresh on
 * every call — the key by its hash, the session against the denylist — so a revocation or logout
 * takes effect on the next call on every replica.
 */
export function credentialPrincipals(runtime: Pick<MemsvcRuntime, 'apiKeys' | 'sessions'>): CredentialLookup {
  return async (token) => {
    const key = await runtime.apiKeys.authenticate(token);
    if (key) {
      return { kind: 'api-key', id: key.id, tenant: key.userId, organizationId: key.organizationId, scopes: key.scopes };
    }
    // /mcp is what an OAuth access token is for; a memsvc session is good here too.
    const session = await runtime.sessions?.verify(token, ['session', 'access-token']);
    if (session) {
      return {
        kind: 'session',
        id: session.jti,
        agent: session.keyId ?? `login:${session.origin}`,
        tenant: session.userId,
        organizationId: session.organizationId,
        scopes: session.scopes,
        ...(session.clientId === null ? {} : { oauthClientId: session.clientId }),
      };
    }
    return undefined;
  };
}
