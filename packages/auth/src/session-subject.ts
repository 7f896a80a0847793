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
  /** Set for an OAuth access token: which client it was issued to, for which resource, from which refresh family. */
  readonly oauth?: OAuthTokenBinding | undefined;
}

/** What makes a session an OAuth access token (RFC 9068 in spirit): its client, audience, family and lifetime. */
export interface OAuthTokenBinding {
  readonly clientId: string;
  /** The MCP resource (RFC 8707) the token is for: its `aud`. */
  readonly audience: string;
  /** The refresh family it was issued from: revoking the family ends the token. */
  readonly familyId: string;
  /** At most this long, and never longer than JWT_EXPIRES_IN. */
  readonly lifetimeSeconds: number;
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
