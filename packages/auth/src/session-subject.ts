import type { Scope, SessionOrigin, TenantId } from '@memsvc/core';

/** Who a session is for and what it may do: the claims of a session JWT, before signing. */
export interface SessionSubject {
  readonly userId: TenantId;
  readonly organizationId: string | null;
  readonly scopes: readonly Scope[];
  /** How the session was started. */
  readonly origin: SessionOrigin;
  /** The API key a session was exchanged for (`origin: 'api-key'`): the agent its calls are counted as. */
  readonly keyId?: string | undefined;
  /** The latest the session may end: an API key's own expiry, which a session must not outlive. */
  readonly notAfter?: Date | null | undefined;
}

/** Where a session request came from, recorded with the session (both optional, both untrusted). */
export interface SessionClient {
  readonly userAgent?: string | undefined;
  readonly ipAddress?: string | undefined;
}

/** A freshly issued session token: handed to the client once, never stored. */
export interface IssuedSession {
  readonly token: string;
  readonly tokenType: 'Bearer';
  readonly expiresAt: Date;
  readonly userId: TenantId;
  readonly organizationId: string | null;
  readonly scopes: readonly Scope[];
}

/** Issues a signed session for a subject and records it (SessionTokens.issue). */
export type SessionIssuer = (subject: SessionSubject, client: SessionClient) => Promise<IssuedSession>;
