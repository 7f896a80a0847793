import { type ApiKeyRecord, type ApiKeyStore, checkApiKeyName, checkScopes, isScope, type NewApiKey, type Scope } from '@memsvc/access';
import { type Clock, type IdGenerator, MemsvcError, type TenantId } from '@memsvc/core';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { retryingLockConflicts } from '../connection/lock-conflicts.js';
import { isUuid } from '../ids/uuid-v7.js';
import type { ApiKeysTable, MemsvcDatabase } from '../schema/database-schema.js';
import { sqlStateOf, UNIQUE_VIOLATION } from './database-errors.js';
import { endDerivedCredentials } from './end-derived-credentials.js';
import { earliestExpiry, lockLiveParents } from './live-parents.js';

type ApiKeyRow = Selectable<ApiKeysTable>;

/** Every column but the hash: the hash is looked up by, never read back. */
const RECORD_COLUMNS = [
  'id',
  'user_id',
  'organization_id',
  'name',
  'prefix',
  'scopes',
  'created_at',
  'expires_at',
  'revoked_at',
  'last_used_at',
] as const satisfies readonly (keyof ApiKeyRow)[];

const KEY_HASH_PATTERN = /^[0-9a-f]{64}$/;
// The shape of a session's jti (pg-session-store.ts): visible ASCII, no whitespace.
const JTI_PATTERN = /^[\x21-\x7e]{1,200}$/;
const PREFIX_MAX_LENGTH = 32;

/** The dependencies of PgApiKeyStore. */
export interface PgApiKeyStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
  /** Stamps `created_at`, and decides whether a new key's expiry lies in the future. */
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/**
 * Per-agent API keys in `api_keys` (spec §2.4). Only the SHA-256 of a key is stored; the unique
 * index on it makes authenticating a request one indexed read.
 */
export class PgApiKeyStore implements ApiKeyStore {
  readonly #db: Kysely<MemsvcDatabase>;
  readonly #clock: Clock;
  readonly #ids: IdGenerator;

  constructor(options: PgApiKeyStoreOptions) {
    this.#db = options.db;
    this.#clock = options.clock;
    this.#ids = options.ids;
  }

  async create(key: NewApiKey): Promise<ApiKeyRecord> {
    const now = this.#clock.now();
    checkApiKeyName(key.name, 'name');
    const scopes = checkScopes(key.scopes, 'scopes');
    if (key.organizationId !== undefined && !isUuid(key.organizationId)) {
      throw new MemsvcError('INVALID_INPUT', 'organizationId must be the UUID of an organization', { field: 'organizationId' });
    }
    if (key.expiresAt !== undefined && !(key.expiresAt.getTime() > now.getTime())) {
      throw new MemsvcError('INVALID_INPUT', 'expiresAt must be a time in the future', { field: 'expiresAt' });
    }
    if (!KEY_HASH_PATTERN.test(key.keyHash)) {
      throw new MemsvcError('INVALID_INPUT', 'keyHash must be a SHA-256 digest in lowercase hex', { field: 'keyHash' });
    }
    if (key.parentKeyId !== undefined && !isUuid(key.parentKeyId)) {
      throw new MemsvcError('INVALID_INPUT', 'parentKeyId must be the id (a UUID) of an API key', { field: 'parentKeyId' });
    }
    if (key.prefix.length === 0 || key.prefix.length > PREFIX_MAX_LENGTH) {
      throw new MemsvcError('INVALID_INPUT', `prefix must be 1 to ${PREFIX_MAX_LENGTH} characters long`, { field: 'prefix' });
    }
    if (key.madeInSession !== undefined && !JTI_PATTERN.test(key.madeInSession)) {
      throw new MemsvcError('INVALID_INPUT', 'madeInSession must be the jti of a session', { field: 'madeInSession' });
    }
    try {
      const row = await this.#db.transaction().execute(async (trx) => {
        if (key.organizationId !== undefined) await checkMembership(trx, key.organizationId, key.userId);
        // The credentials this key is made from are read again here and locked against a
        // concurrent revocation or logout, which then waits for this insert and ends the key too.
        const parents = await lockLiveParents(trx, key, now);
        return trx
          .insertInto('api_keys')
          .values({
            id: this.#ids.next(),
            user_id: key.userId,
            organization_id: key.organizationId ?? null,
            name: key.name,
            prefix: key.prefix,
            key_hash: key.keyHash,
            scopes: [...scopes],
            created_at: now,
            expires_at: earliestExpiry([key.expiresAt, parents.expiresAt]) ?? null,
            parent_key_id: parents.parentKeyId ?? null,
            session_jti: key.madeInSession ?? null,
          })
          .returning(RECORD_COLUMNS)
          .executeTakeFirstOrThrow();
      });
      return toRecord(row);
    } catch (error) {
      if (sqlStateOf(error) === UNIQUE_VIOLATION) {
        throw new MemsvcError('CONFLICT', 'a key with this hash is already stored; mint a new key', { field: 'keyHash' });
      }
      throw error;
    }
  }

  async findUsable(keyHash: string, now: Date): Promise<ApiKeyRecord | undefined> {
    const row = await this.#db
      .selectFrom('api_keys')
      .select(RECORD_COLUMNS)
      .where('key_hash', '=', keyHash)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async list(query: { readonly userId?: TenantId | undefined }): Promise<readonly ApiKeyRecord[]> {
    let select = this.#db.selectFrom('api_keys').select(RECORD_COLUMNS);
    if (query.userId !== undefined) select = select.where('user_id', '=', query.userId);
    const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    return rows.map(toRecord);
  }

  async revoke(id: string, now: Date): Promise<ApiKeyRecord | undefined> {
    if (!isUuid(id)) return undefined;
    return this.#db.transaction().execute(async (trx) => {
      // The first revocation time stays: revoking again changes nothing of this key's.
      const revoked = await trx
        .updateTable('api_keys')
        .set({ revoked_at: sql<Date>`coalesce(revoked_at, ${now})` })
        .where('id', '=', id)
        .returning(RECORD_COLUMNS)
        .executeTakeFirst();
      if (!revoked) return undefined;
      // The key's sessions, the keys made from it or in those sessions, at any depth.
      await endDerivedCredentials(trx, { keyIds: [id] }, now);
      return toRecord(revoked);
    });
  }

  async revokeAllOf(userId: TenantId, now: Date): Promise<number> {
    return this.#db.transaction().execute(async (trx) => {
      const revoked = await trx
        .updateTable('api_keys')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .returning('id')
        .execute();
      // What keys revoked earlier made was ended then; these are the keys revoked now.
      await endDerivedCredentials(trx, { keyIds: revoked.map((key) => key.id) }, now);
      return revoked.length;
    });
  }

  async recordUse(ids: readonly string[], now: Date): Promise<void> {
    const unique = [...new Set(ids)].filter(isUuid).sort();
    if (unique.length === 0) return;
    // Rows locked in id order, so two replicas recording overlapping batches cannot deadlock;
    // a batch that arrives late never moves last_used_at backwards.
    await retryingLockConflicts(() =>
      sql`
        WITH locked AS (
          SELECT id FROM api_keys WHERE id = ANY(${unique}::uuid[]) ORDER BY id FOR NO KEY UPDATE
        )
        UPDATE api_keys SET last_used_at = greatest(api_keys.last_used_at, ${now}::timestamptz)
        FROM locked WHERE api_keys.id = locked.id`.execute(this.#db),
    );
  }
}

function toRecord(row: Omit<ApiKeyRow, 'key_hash' | 'parent_key_id' | 'session_jti'>): ApiKeyRecord {
  return {
    id: row.id,
    userId: row.user_id as TenantId,
    organizationId: row.organization_id,
    name: row.name,
    prefix: row.prefix,
    // A scope this version does not know (written by a newer one) grants nothing here.
    scopes: row.scopes.filter((scope): scope is Scope => isScope(scope)),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

/**
 * A key may belong to an organization only when its user is a member: the organization is what
 * rate limits add up over and what its admins administer, so a key must not join one on its
 * own. The membership row is locked for share, so a concurrent removal waits for this insert.
 */
async function checkMembership(trx: Transaction<MemsvcDatabase>, organizationId: string, userId: TenantId): Promise<void> {
  const member = await trx
    .selectFrom('organization_members')
    .select('role')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .forShare()
    .executeTakeFirst();
  if (member) return;
  const organization = await trx.selectFrom('organizations').select('id').where('id', '=', organizationId).executeTakeFirst();
  if (!organization) throw new MemsvcError('NOT_FOUND', `no organization with id ${organizationId}`, { field: 'organizationId' });
  throw new MemsvcError(
    'INVALID_INPUT',
    `${userId} is not a member of organization ${organizationId}; add them first (memsvc orgs add-member)`,
    { field: 'organizationId' },
  );
}
