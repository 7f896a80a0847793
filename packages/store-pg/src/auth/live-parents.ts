import type { NewApiKey } from '@memsvc/access';
import { MemsvcError } from '@memsvc/core';
import type { Transaction } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/** What a new key inherits from the credentials it is made from. */
export interface LiveParents {
  /** The key it is made from: the one named, or the one whose session it is made in. */
  readonly parentKeyId?: string | undefined;
  /** The earliest end of those credentials: the new key ends no later. */
  readonly expiresAt?: Date | undefined;
}

/**
 * Reads the session and the key a new key is made from, in the minting transaction, and locks
 * their rows `FOR SHARE`: a logout or a revocation updates those rows, so it waits for this
 * insert to commit (and then ends the new key with them), or this read waits for it and finds
 * them ended. Either way no key outlives what made it. A credential that is revoked, expired,
 * logged out or another user's is UNAUTHENTICATED naming its field, and nothing is written.
 */
export async function lockLiveParents(trx: Transaction<MemsvcDatabase>, key: NewApiKey, now: Date): Promise<LiveParents> {
  let parentKeyId = key.parentKeyId;
  let expiresAt: Date | undefined;
  if (key.madeInSession !== undefined) {
    const session = await trx
      .selectFrom('sessions')
      .select(['user_id', 'expires_at', 'api_key_id'])
      .where('jti', '=', key.madeInSession)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .forShare()
      .executeTakeFirst();
    if (!session || session.user_id !== key.userId) {
      throw new MemsvcError(
        'UNAUTHENTICATED',
        'the session this key would be made in has ended (logged out, revoked or expired); sign in again',
        {
          field: 'madeInSession',
        },
      );
    }
    if (parentKeyId !== undefined && session.api_key_id !== null && parentKeyId !== session.api_key_id) {
      throw new MemsvcError('INVALID_INPUT', 'parentKeyId must be the key of the session the key is made in, when it has one', {
        field: 'parentKeyId',
      });
    }
    parentKeyId ??= session.api_key_id ?? undefined;
    expiresAt = session.expires_at;
  }
  if (parentKeyId !== undefined) {
    const parent = await trx
      .selectFrom('api_keys')
      .select(['user_id', 'expires_at'])
      .where('id', '=', parentKeyId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .forShare()
      .executeTakeFirst();
    if (!parent || parent.user_id !== key.userId) {
      throw new MemsvcError(
        'UNAUTHENTICATED',
        'the key this key would be made from is revoked or expired; a key that has ended mints nothing',
        {
          field: 'parentKeyId',
        },
      );
    }
    expiresAt = earliestExpiry([expiresAt, parent.expires_at ?? undefined]);
  }
  return { parentKeyId, expiresAt };
}

/** The earliest of some expiries, where undefined is never. */
export function earliestExpiry(expiries: readonly (Date | undefined)[]): Date | undefined {
  let earliest: Date | undefined;
  for (const expiry of expiries) {
    if (expiry !== undefined && (earliest === undefined || expiry.getTime() < earliest.getTime())) earliest = expiry;
  }
  return earliest;
}
