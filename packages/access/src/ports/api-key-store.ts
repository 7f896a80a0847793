import type { TenantId } from '@memsvc/core';
import type { Scope } from '../domain/scopes.js';

/**
 * A per-agent API key as stored: never the key itself, only what identifies and limits it. The
 * `prefix` (the key's first characters) lets a person recognise a key in a list.
 */
export interface ApiKeyRecord {
  readonly id: string;
  /** The tenant the key acts as. */
  readonly userId: TenantId;
  readonly organizationId: string | null;
  readonly name: string;
  readonly prefix: string;
  /** Known scopes only: a stored scope this version does not know grants nothing. */
  readonly scopes: readonly Scope[];
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  readonly revokedAt: Date | null;
  readonly lastUsedAt: Date | null;
}

/** A key to store: its hash and prefix, minted by `@memsvc/auth`, and what it may do. */
export interface NewApiKey {
  readonly userId: TenantId;
  readonly name: string;
  readonly organizationId?: string | undefined;
  readonly scopes: readonly Scope[];
  readonly expiresAt?: Date | undefined;
  readonly prefix: string;
  readonly keyHash: string;
  /** The key this one was made with: revoking that key revokes this one too. */
  readonly parentKeyId?: string | undefined;
  /**
   * The `jti` of the session this key was made in (the dashboard's Access page). The store
   * refuses to mint unless that session is live at the moment of the insert; the key expires no
   * later than the session, is revoked when the session ends (logout, revocation of its key or
   * of every session of its user), and its parent is the session's own key when it has one.
   */
  readonly madeInSession?: string | undefined;
}

/**
 * Per-agent API keys (spec §2.4, §5.5). Keys are stored hashed; a lookup is by hash, so the
 * store never sees a key it could leak.
 */
export interface ApiKeyStore {
  /**
   * Stores a new key. INVALID_INPUT naming the field for a bad name (1–100 characters), unknown
   * scopes, an expiry not in the future, a malformed hash or organization id; NOT_FOUND for an
   * organization that does not exist; CONFLICT for a hash already stored; UNAUTHENTICATED naming
   * `parentKeyId` or `madeInSession` when that credential is not live (revoked, expired, logged
   * out, or another user's) at the moment of the insert: a credential that has ended mints
   * nothing. A key expires no later than its parent key and the session it was made in. Bad
   * input writes nothing.
   */
  create(key: NewApiKey): Promise<ApiKeyRecord>;

  /** The key with this hash if it is usable at `now`: not revoked, not expired. One indexed read. */
  findUsable(keyHash: string, now: Date): Promise<ApiKeyRecord | undefined>;

  /** Keys, newest first: of one user when `userId` is given, else all of them (operators only). */
  list(query: { readonly userId?: TenantId | undefined }): Promise<readonly ApiKeyRecord[]>;

  /**
   * Revokes; returns the record as now, or undefined when there is no such key. Idempotent. The
   * keys made from it (`parentKeyId`, at any depth), the sessions exchanged for any of them and
   * the keys made in those sessions end with it, in the same transaction: no credential outlives
   * the one that made it.
   */
  revoke(id: string, now: Date): Promise<ApiKeyRecord | undefined>;

  /** Revokes every unrevoked key of a user (shutting a person out), ending their sessions as `revoke` does; returns how many keys. */
  revokeAllOf(userId: TenantId, now: Date): Promise<number>;

  /** Records that these keys were used at `now`, in one statement (callers batch). */
  recordUse(ids: readonly string[], now: Date): Promise<void>;
}
