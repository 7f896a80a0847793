import type { Clock, TenantId } from '@memsvc/core';
import { MemsvcError } from '@memsvc/core';
import { API_KEY_MAX_LIFETIME_DAYS, checkApiKeyName, checkKeyScopesHeld } from '../domain/api-key-rules.js';
import type { Scope } from '../domain/scopes.js';
import type { ApiKeyRecord, ApiKeyStore } from '../ports/api-key-store.js';
import type { AccessProfile, FieldNames } from './access-stores.js';

const DAY_MS = 86_400_000;

/** A freshly minted key: the key to hand over once, and what is stored of it (`@memsvc/auth`'s mintApiKey makes one). */
export interface MintedKey {
  readonly key: string;
  readonly prefix: string;
  readonly keyHash: string;
}

/** A key someone asks for, from whatever surface took it (a CLI flag, a form). */
export interface KeyRequest {
  readonly userId: TenantId;
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly organizationId?: string | undefined;
  /** Whole days until it expires (1 to API_KEY_MAX_LIFETIME_DAYS), or undefined for a key that does not. */
  readonly expiresInDays?: number | undefined;
  /** The session it is made in (the dashboard): the store ties the key's life to it. */
  readonly madeInSession?: string | undefined;
}

/** Who makes the key: the scopes they hold bound the scopes it may have. */
export interface KeyMaker {
  readonly heldScopes: readonly Scope[];
}

/** A key just issued: its stored record, and the key itself, which exists nowhere else and is shown once. */
export interface IssuedKey {
  readonly record: ApiKeyRecord;
  readonly key: string;
}

/** A revocation's outcome: the key, and whether it had been revoked before (another tab, an operator). */
export interface KeyRevocation {
  readonly key: ApiKeyRecord;
  readonly alreadyRevoked: boolean;
}

/** The fields of a key request a refusal may name. */
export type KeyRequestField = 'name' | 'scopes' | 'expiresInDays';

/** FORBIDDEN on the lite profile, which accepts no per-agent API key (spec §5.5): nothing is minted there. */
export function checkKeysAccepted(profile: AccessProfile): void {
  if (profile === 'lite') {
    throw new MemsvcError('FORBIDDEN', 'the lite profile accepts no per-agent API keys (the standard profile does), so none was made');
  }
}

/**
 * Checks a key request without a store: on `lite` there is no per-agent key (spec §5.5), so the
 * refusal comes before anything is minted; then the name, the scopes the maker holds and the
 * lifetime. Surfaces call it before they open the database; `KeyAccess.create` calls it again.
 */
export function checkKeyRequest(
  profile: AccessProfile,
  request: KeyRequest,
  maker: KeyMaker,
  fields: FieldNames<KeyRequestField> = {},
): KeyRequest {
  checkKeysAccepted(profile);
  const days = request.expiresInDays;
  if (days !== undefined && !(Number.isInteger(days) && days >= 1 && days <= API_KEY_MAX_LIFETIME_DAYS)) {
    const field = fields.expiresInDays ?? 'expiresInDays';
    throw new MemsvcError('INVALID_INPUT', `${field} must be a whole number of days from 1 to ${API_KEY_MAX_LIFETIME_DAYS}`, { field });
  }
  return {
    ...request,
    name: checkApiKeyName(request.name, fields.name ?? 'name'),
    scopes: checkKeyScopesHeld(request.scopes, maker.heldScopes, fields.scopes ?? 'scopes'),
  };
}

/** What `KeyAccess` needs: the key store, the clock, the profile, and how keys are minted. */
export interface KeyAccessOptions {
  readonly apiKeys: ApiKeyStore;
  readonly clock: Clock;
  readonly profile: AccessProfile;
  readonly mintKey: () => MintedKey;
}

/**
 * Per-agent API keys, the one way the CLI and the dashboard make, list and revoke them: the
 * domain's rules first (checkKeyRequest), then the minted secret, of which only the hash and the
 * prefix are stored. The store applies the rest (organization membership, a live session).
 */
export class KeyAccess {
  readonly #options: KeyAccessOptions;

  constructor(options: KeyAccessOptions) {
    this.#options = options;
  }

  /** FORBIDDEN on the lite profile: a surface asks before it reads a request it would refuse anyway. */
  checkAccepted(): void {
    checkKeysAccepted(this.#options.profile);
  }

  /** Issues a key; FORBIDDEN on lite and INVALID_INPUT naming the field before anything is minted. */
  async create(request: KeyRequest, maker: KeyMaker, fields: FieldNames<KeyRequestField> = {}): Promise<IssuedKey> {
    const { apiKeys, clock, profile, mintKey } = this.#options;
    const checked = checkKeyRequest(profile, request, maker, fields);
    const minted = mintKey();
    const record = await apiKeys.create({
      userId: checked.userId,
      name: checked.name,
      organizationId: checked.organizationId,
      scopes: checked.scopes,
      expiresAt: checked.expiresInDays === undefined ? undefined : new Date(clock.now().getTime() + checked.expiresInDays * DAY_MS),
      madeInSession: checked.madeInSession,
      prefix: minted.prefix,
      keyHash: minted.keyHash,
    });
    return { record, key: minted.key };
  }

  /** The keys of one user, or of everyone (an operator), newest first; never a key or a hash. */
  list(userId?: TenantId): Promise<readonly ApiKeyRecord[]> {
    return this.#options.apiKeys.list({ userId });
  }

  /**
   * Revokes one key now (its sessions end with it). With `owner`, only a key of that user: any
   * other id is NOT_FOUND and nothing changes, so a person cannot learn or end another's keys.
   */
  async revoke(id: string, options: { readonly owner?: TenantId | undefined } = {}): Promise<KeyRevocation> {
    const { apiKeys, clock } = this.#options;
    const notFound = () => new MemsvcError('NOT_FOUND', `no API key with id "${id}"`, { field: 'id' });
    if (options.owner !== undefined && !(await apiKeys.list({ userId: options.owner })).some((key) => key.id === id)) throw notFound();
    const now = clock.now();
    const revoked = await apiKeys.revoke(id, now);
    if (!revoked) throw notFound();
    // The store keeps the first revocation time, so an earlier one means someone got there first.
    return { key: revoked, alreadyRevoked: revoked.revokedAt !== null && revoked.revokedAt.getTime() !== now.getTime() };
  }

  /** Revokes every key of a user (shutting a person out); returns how many. */
  revokeAllOf(userId: TenantId): Promise<number> {
    return this.#options.apiKeys.revokeAllOf(userId, this.#options.clock.now());
  }
}
