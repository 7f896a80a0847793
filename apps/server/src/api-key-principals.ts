import type { ApiKeyPrincipal } from '@memsvc/mcp-tools';
import type { MemsvcRuntime } from '@memsvc/runtime';
import type { ApiKeyLookup } from './mcp-http-route.js';

/** The principal of a usable per-agent API key: its user is the tenant, its scopes are checked per tool. */
export function apiKeyPrincipals(runtime: Pick<MemsvcRuntime, 'apiKeys'>): ApiKeyLookup {
  return async (token) => {
    const key = await runtime.apiKeys.authenticate(token);
    if (!key) return undefined;
    const principal: ApiKeyPrincipal = {
      kind: 'api-key',
      id: key.id,
      tenant: key.userId,
      organizationId: key.organizationId,
      scopes: key.scopes,
    };
    return principal;
  };
}
