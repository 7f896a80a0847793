import type { TenantId } from '@memsvc/core';

/** How a session was started: by exchanging an API key, or by a login with an identity provider. */
export type SessionOrigin = 'api-key' | 'github' | 'google';

/** A session JWT as recorded when it was issued (never the token itself). */
export interface SessionRecord {
  readonly id: string;
  readonly userId: TenantId;
  /** The token's `jti`: what logout puts on the denylist. */
  readonly jti: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
  readonly userAgent: string | null;
  readonly ipAddress: string | null;
  /** The API key this session was exchanged for; revoking that key ends the session. */
  readonly apiKeyId: string | null;
}

/** A session to record when its token is issued. */
export interface NewSession {
  readonly userId: TenantId;
  readonly jti: string;
  readonly expiresAt: Date;
  /** Shortened to 512 characters: it is whatever the client sent. */
  readonly userAgent?: string | undefined;
  readonly ipAddress?: string | undefined;
  /** The API key exchanged for this session, when it was one. */
  readonly apiKeyId?: string | undefined;
  /** The OAuth refresh family this access token was issued from: reusing a rotated refresh token ends it. */
  readonly oauthFamilyId?: string | undefined;
}

/**
 * Issued sessions and the `jti` denylist (spec §2.4). A token is verified by its signature; the
 * store answers the one question a signature cannot: was it revoked since. Expired rows are
 * bulk-deleted by the auth-store sweep; every read filters on expiry regardless.
 */
export interface SessionStore {
  /**
   * Records an issued session. INVALID_INPUT naming the field for a bad jti or an expiry not
   * after now. With `apiKeyId`, the key is read again in the same transaction and locked against
   * a concurrent revocation: UNAUTHENTICATED naming `apiKeyId` when it is not usable at that
   * moment (revoked, expired, or another user's), so a key revoked while its exchange was in
   * flight opens nothing. With `oauthFamilyId`, the refresh family is read and locked the same
   * way: UNAUTHENTICATED naming `oauthFamilyId` when it is revoked, expired or another user's, so
   * an access token is never issued from a family a replay has revoked (the revocation either
   * waits for this insert and ends the session with the family's others, or this read finds it).
   */
  create(session: NewSession): Promise<SessionRecord>;

  /** Whether this `jti` is on the denylist at `now` (an entry past its expiry no longer counts). One indexed read. */
  isDenied(jti: string, now: Date): Promise<boolean>;

  /**
   * Puts a `jti` on the denylist until `expiresAt` (when the token would have expired anyway) and
   * marks its session revoked, in one transaction, with the keys made in that session (and what
   * was made from them). Idempotent: revoking twice is not an error.
   */
  deny(jti: string, expiresAt: Date, now: Date): Promise<void>;

  /**
   * Ends every session of a user that is live at `now`: each `jti` goes on the denylist until its
   * token would have expired, and the keys made in those sessions are revoked, in one
   * transaction. Returns how many sessions were ended.
   */
  denyAll(userId: TenantId, now: Date): Promise<number>;

  /** A user's sessions that have not expired at `now` (revoked ones included, marked), newest first. */
  listActive(userId: TenantId, now: Date): Promise<readonly SessionRecord[]>;
}
