import type { AuthorizationGrant } from './oauth-authorization-store.js';

/** What presenting a refresh token did. */
export type RefreshOutcome =
  /** The token was live: it is now used, and the successor presented with it is the family's live token. */
  | { readonly kind: 'rotated'; readonly familyId: string; readonly grant: AuthorizationGrant }
  /**
   * The token had already been rotated (or its family was revoked): someone holds a copy. The
   * whole family is revoked, with the live access tokens issued from it.
   */
  | { readonly kind: 'reused'; readonly familyId: string }
  /** No such token, or it (or its family) expired. */
  | { readonly kind: 'unknown' };

/** A live refresh token's family and grant, as `peek` finds them. */
export interface LiveRefreshToken {
  readonly familyId: string;
  readonly grant: AuthorizationGrant;
}

/**
 * Refresh tokens (OAuth 2.1 §4.3, RFC 9700 §4.14.2), stored as SHA-256 hashes, in families: the
 * first is issued with the code's grant, each use rotates it, and a token used twice revokes
 * its family — the successors and every access token (session) issued from the family.
 */
export interface OAuthRefreshStore {
  /** Starts a family for a grant with its first token; the family ends at `expiresAt`. */
  startFamily(familyId: string, grant: AuthorizationGrant, tokenHash: string, expiresAt: Date): Promise<void>;

  /**
   * Uses a refresh token: when live, marks it used and stores `nextHash` as its successor, in one
   * transaction. When already used, revokes the family (its sessions denied until they expire).
   */
  rotate(tokenHash: string, nextHash: string, now: Date): Promise<RefreshOutcome>;

  /**
   * The family and grant of a refresh token that is unused, of a family neither revoked nor
   * expired at `now`; undefined otherwise. Changes nothing: a request is checked against the
   * grant before `rotate` uses the token, so a refusable request spends nothing.
   */
  peek(tokenHash: string, now: Date): Promise<LiveRefreshToken | undefined>;

  /** Revokes a family and ends the live sessions issued from it (idempotent). */
  revokeFamily(familyId: string, now: Date): Promise<void>;
}
