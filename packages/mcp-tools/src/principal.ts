import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';

/**
 * Who is calling, as the transport established it — never taken from a tool's arguments.
 * `anonymous`: stdio, or HTTP on a server that does not require authentication (spec §4.2 calls
 * it `local`). `pre-shared-key`: HTTP with the server's MEMSVC_API_KEY. Per-agent keys and
 * sessions join this union; the tool pipeline turns a principal into the engine's CallContext.
 */
export type Principal = AnonymousPrincipal | PreSharedKeyPrincipal;

export interface AnonymousPrincipal {
  readonly kind: 'anonymous';
  /** The audit actor and the `agent` metrics label. */
  readonly id: 'local';
}

export interface PreSharedKeyPrincipal {
  readonly kind: 'pre-shared-key';
  readonly id: 'shared-key';
}

export const ANONYMOUS_PRINCIPAL: AnonymousPrincipal = Object.freeze({ kind: 'anonymous', id: 'local' });
export const PRE_SHARED_KEY_PRINCIPAL: PreSharedKeyPrincipal = Object.freeze({ kind: 'pre-shared-key', id: 'shared-key' });

const KNOWN: readonly Principal[] = [ANONYMOUS_PRINCIPAL, PRE_SHARED_KEY_PRINCIPAL];

/**
 * The SDK's `authInfo` for a principal, which the transport hands to every tool call of the
 * request. The credential itself is not carried: the tools need to know who, not the secret.
 */
export function authInfoOf(principal: Principal): AuthInfo {
  return { token: '', clientId: principal.id, scopes: [], extra: { principal } };
}

/** The principal a call's `authInfo` carries; anonymous when the transport attached none. */
export function principalOf(authInfo: AuthInfo | undefined): Principal {
  const carried = authInfo?.extra?.principal as Partial<Principal> | undefined;
  return KNOWN.find((known) => known.kind === carried?.kind && known.id === carried?.id) ?? ANONYMOUS_PRINCIPAL;
}
