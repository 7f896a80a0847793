import { SCOPES, type Scope } from '@memsvc/access';
import type { TenantId } from '@memsvc/core';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';

/**
 * Who is calling, as the transport established it — never taken from a tool's arguments.
 * `anonymous`: stdio, or HTTP on a server that does not require authentication (spec §4.2 calls
 * it `local`); it acts for the `userId` it names (spec §5.1). `pre-shared-key`: HTTP with the
 * server's MEMSVC_API_KEY; it acts for MEMSVC_DEFAULT_USER_ID only. `api-key`: a per-agent key;
 * it acts for its own user, with its own scopes. `session`: a session JWT, likewise for its user
 * and scopes. The tool pipeline turns a principal into the
 * engine's CallContext.
 */
export type Principal = AnonymousPrincipal | PreSharedKeyPrincipal | CredentialPrincipal;

/** A caller whose credential names its own tenant and scopes: a per-agent key or a session. */
export type CredentialPrincipal = ApiKeyPrincipal | SessionPrincipal;

export interface AnonymousPrincipal {
  readonly kind: 'anonymous';
  /** The audit actor and the `agent` metrics label. */
  readonly id: 'local';
}

export interface PreSharedKeyPrincipal {
  readonly kind: 'pre-shared-key';
  readonly id: 'shared-key';
}

/** A caller holding a per-agent API key: its tenant and scopes are the key's. */
export interface ApiKeyPrincipal {
  readonly kind: 'api-key';
  /** The key's id: the `agent` metrics label (spec §4.2). */
  readonly id: string;
  readonly tenant: TenantId;
  readonly organizationId: string | null;
  readonly scopes: readonly Scope[];
}

/** A caller holding a session JWT (from an API key exchange or a GitHub/Google login). */
export interface SessionPrincipal {
  readonly kind: 'session';
  /** The token's `jti`: the audit actor is `session:<jti>`. */
  readonly id: string;
  /**
   * The `agent` metrics label: the id of the API key the session was exchanged for, or
   * `login:<provider>` — bounded, unlike the jti, and naming no person.
   */
  readonly agent: string;
  readonly tenant: TenantId;
  readonly organizationId: string | null;
  readonly scopes: readonly Scope[];
}

export const ANONYMOUS_PRINCIPAL: AnonymousPrincipal = Object.freeze({ kind: 'anonymous', id: 'local' });
export const PRE_SHARED_KEY_PRINCIPAL: PreSharedKeyPrincipal = Object.freeze({ kind: 'pre-shared-key', id: 'shared-key' });

/** Whether a principal's tenant and scopes come from its credential. */
export function isCredential(principal: Principal): principal is CredentialPrincipal {
  return principal.kind === 'api-key' || principal.kind === 'session';
}

/** The audit trail's name for a principal: `agent:<key id>` for a per-agent key, `session:<jti>` for a session. */
export function auditActorOf(principal: Principal): string {
  if (principal.kind === 'api-key') return `agent:${principal.id}`;
  if (principal.kind === 'session') return `session:${principal.id}`;
  return principal.id;
}

/**
 * The `agent` label of memsvc_agent_memory_operations_total (spec §4.2): a per-agent key's id, the
 * key behind a session (or `login:<provider>`), `shared-key`, or `local` for unauthenticated and
 * stdio calls. Never a key, a token, an email or a user id.
 */
export function agentOf(principal: Principal): string {
  return principal.kind === 'session' ? principal.agent : principal.id;
}

/** Whether a principal holds a scope; the anonymous caller and the pre-shared key hold every one. */
export function holdsScope(principal: Principal, scope: Scope): boolean {
  return !isCredential(principal) || principal.scopes.includes(scope);
}

/**
 * The SDK's `authInfo` for a principal, which the transport hands to every tool call of the
 * request, with the client's address when the request came over HTTP (the per-address rate
 * limit). The credential itself is not carried: the tools need to know who, not the secret.
 */
export function authInfoOf(principal: Principal, clientAddress?: string | undefined): AuthInfo {
  return {
    token: '',
    clientId: principal.id,
    scopes: isCredential(principal) ? [...principal.scopes] : [],
    extra: { principal, ...(clientAddress === undefined ? {} : { clientAddress }) },
  };
}

/** The client address the transport attached to a call, if it attached one. */
export function clientAddressOf(authInfo: AuthInfo | undefined): string | undefined {
  const address = authInfo?.extra?.clientAddress;
  return typeof address === 'string' && address.length > 0 ? address : undefined;
}

/**
 * The principal a call's `authInfo` carries; anonymous when the transport attached none or
 * something that is not a principal (a tool never trusts a shape it did not expect).
 */
export function principalOf(authInfo: AuthInfo | undefined): Principal {
  const carried = authInfo?.extra?.principal as Partial<Principal> | undefined;
  if (carried?.kind === PRE_SHARED_KEY_PRINCIPAL.kind && carried.id === PRE_SHARED_KEY_PRINCIPAL.id) return PRE_SHARED_KEY_PRINCIPAL;
  if ((carried?.kind === 'api-key' || carried?.kind === 'session') && isCredentialShaped(carried)) return carried;
  return ANONYMOUS_PRINCIPAL;
}

function isCredentialShaped(value: Partial<CredentialPrincipal>): value is CredentialPrincipal {
  if (value.kind === 'session' && typeof (value as Partial<SessionPrincipal>).agent !== 'string') return false;
  return (
    typeof value.id === 'string' &&
    typeof value.tenant === 'string' &&
    (value.organizationId === null || typeof value.organizationId === 'string') &&
    Array.isArray(value.scopes) &&
    value.scopes.every((scope) => SCOPES.includes(scope))
  );
}
