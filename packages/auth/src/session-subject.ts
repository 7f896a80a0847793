import type { Scope, SessionOrigin } from '@memsvc/access';
import type { TenantId } from '@memsvc/core';

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
  /** Set for a session that is not a memsvc session: one of the OAuth consent page's (SessionPurpose). */
  readonly purpose?: SessionPurpose | undefined;
}

/**
 * The consent page's two sessions, each with an audience of its own so that no other verifier
 * takes it: `consent-sign-in`, the GitHub or Google sign-in a person makes on the page, good for
 * the decision only and for ten minutes at most; `consent-grant`, recorded when they approve, which
 * no verifier accepts at all: the grant ends when it ends (ending every session of the person,
 * blocking the account, ending it on the dashboard), and its token is never handed out.
 */
export type SessionPurpose = 'consent-sign-in' | 'consent-grant';

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
  /** The session's id (`jti`): what ending it names. */
  readonly jti: string;
  readonly tokenType: 'Bearer';
  readonly expiresAt: Date;
  readonly userId: TenantId;
  readonly organizationId: string | null;
  readonly scopes: readonly Scope[];
}

/** Issues a signed session for a subject and records it (SessionTokens.issue). */
export type SessionIssuer = (subject: SessionSubject, client: SessionClient) => Promise<IssuedSession>;
