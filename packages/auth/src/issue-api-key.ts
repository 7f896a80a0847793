import { type ApiKeyRecord, type ApiKeyStore, checkKeyScopesHeld, type Scope } from '@memsvc/access';
import type { Clock, TenantId } from '@memsvc/core';
import { mintApiKey } from './api-key-secret.js';

const DAY_MS = 86_400_000;

/** A key someone asks for: fields already parsed by the surface that took them (a CLI flag, a form). */
export interface ApiKeyRequest {
  readonly userId: TenantId;
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly organizationId?: string | undefined;
  /** Whole days until it expires (core's keyLifetimeDays), or undefined for a key that does not. */
  readonly expiresInDays?: number | undefined;
  /** The session it is made in (the dashboard): the store ties the key's life to it. */
  readonly madeInSession?: string | undefined;
}

/** Who makes the key: the scopes they hold bound the scopes it may have. */
export interface ApiKeyMaker {
  readonly heldScopes: readonly Scope[];
}

/** A key just issued: its stored record, and the key itself, which exists nowhere else and is shown once. */
export interface IssuedApiKey {
  readonly record: ApiKeyRecord;
  readonly key: string;
}

/**
 * Issues a per-agent API key, the one way the CLI and the dashboard make one: applies the
 * domain's rules for a key (a maker gives no scope they do not hold), mints the secret, and
 * stores only its hash and prefix. The store applies the rest (organization membership, a live
 * session) as it inserts.
 */
export async function issueApiKey(apiKeys: ApiKeyStore, request: ApiKeyRequest, maker: ApiKeyMaker, clock: Clock): Promise<IssuedApiKey> {
  const scopes = checkKeyScopesHeld(request.scopes, maker.heldScopes);
  const minted = mintApiKey();
  const record = await apiKeys.create({
    userId: request.userId,
    name: request.name,
    organizationId: request.organizationId,
    scopes,
    expiresAt: request.expiresInDays === undefined ? undefined : new Date(clock.now().getTime() + request.expiresInDays * DAY_MS),
    madeInSession: request.madeInSession,
    prefix: minted.prefix,
    keyHash: minted.keyHash,
  });
  return { record, key: minted.key };
}
