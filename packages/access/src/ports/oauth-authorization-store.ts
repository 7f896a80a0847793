import type { TenantId } from '@memsvc/core';
import type { Scope } from '../domain/scopes.js';
import type { SessionOrigin } from './session-store.js';

/** An authorization request that passed every check, waiting for a person's sign-in and consent. */
export interface PendingAuthorization {
  readonly clientId: string;
  /** Exactly as the request gave it, and registered for the client. */
  readonly redirectUri: string;
  /** The PKCE S256 challenge (43 base64url characters). */
  readonly codeChallenge: string;
  /** What the client asked for (RFC 8707 `resource`): memsvc's MCP endpoint. */
  readonly resource: string;
  readonly scopes: readonly Scope[];
  /** The client's `state`, returned to it untouched (untrusted text). */
  readonly state: string | null;
}

/** Who consented, to what: the subject of the tokens a code is exchanged for. */
export interface AuthorizationGrant {
  readonly clientId: string;
  readonly resource: string;
  /** What was granted: at most what was asked and what the signer holds. */
  readonly scopes: readonly Scope[];
  readonly userId: TenantId;
  readonly organizationId: string | null;
  /** How the person signed in on the consent page. */
  readonly origin: SessionOrigin;
  /** The API key used to sign in: revoking it ends every token of the grant. */
  readonly apiKeyId: string | null;
  /** The latest any token of the grant may live: the signing key's expiry, then the refresh family's end. */
  readonly notAfter: Date | null;
  /** The GitHub or Google login session the person consented in: logging it out (or blocking the account) ends the grant. */
  readonly signInJti: string | null;
}

/** An authorization code's binding: the grant plus what the token request must repeat. */
export interface CodeGrant extends AuthorizationGrant {
  readonly redirectUri: string;
  readonly codeChallenge: string;
}

/** The refresh family a code starts when it is redeemed: its id, its first token's hash, its latest end. */
export interface NewRefreshFamily {
  /** A UUID. */
  readonly id: string;
  /** The SHA-256 (lowercase hex) of the family's first refresh token. */
  readonly tokenHash: string;
  /** The family's lifetime from consent; it ends at the grant's `notAfter` when that comes first. */
  readonly expiresAt: Date;
}

/**
 * What presenting a code found: its grant (now redeemed, its refresh family started); a code
 * already redeemed, whose family is now revoked (RFC 6749 §4.1.2: a second use revokes what the
 * first obtained); or nothing usable (unknown or expired).
 */
export type CodeRedemption =
  | { readonly kind: 'granted'; readonly grant: CodeGrant }
  | { readonly kind: 'reused'; readonly familyId: string }
  | { readonly kind: 'unknown' };

/**
 * The single-use steps of an authorization (OAuth 2.1 §4.1): a request between the authorize page
 * and the consent, and a code between the redirect and the token request. Both are stored only
 * as the SHA-256 of their secret, expire, and are consumed at most once: of two racing uses, one
 * wins.
 */
export interface OAuthAuthorizationStore {
  /** Keeps a checked request under the hash of its handle until `expiresAt`. INVALID_INPUT naming the field for bad input. */
  savePending(handleHash: string, request: PendingAuthorization, expiresAt: Date): Promise<void>;

  /** The pending request under this hash, unless unknown or expired at `now` (not consumed). */
  findPending(handleHash: string, now: Date): Promise<PendingAuthorization | undefined>;

  /** Takes the pending request under this hash, deleting it; undefined when unknown or expired (deleted too). */
  consumePending(handleHash: string, now: Date): Promise<PendingAuthorization | undefined>;

  /** Keeps an issued code's binding under the code's hash until `expiresAt`. */
  saveCode(codeHash: string, grant: CodeGrant, expiresAt: Date): Promise<void>;

  /**
   * Redeems the code under this hash, once, and starts its refresh family `family` (with the
   * code's grant) in the same transaction: of racing redemptions one is granted and the others
   * see it reused, and a reuse revokes that family (and ends its live access tokens) in its own
   * transaction — the family exists by then, so no replay, however early, misses it. A redeemed
   * code is kept (with its family) until it expires, so a replay is told apart from a guess; an
   * expired one is deleted. INVALID_INPUT naming the field for a bad family id, token hash or
   * expiry, before anything is read.
   */
  consumeCode(codeHash: string, family: NewRefreshFamily, now: Date): Promise<CodeRedemption>;
}
