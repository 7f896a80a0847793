import type { NewSession, SessionRecord, SessionStore } from '@memsvc/access';
import { type Clock, type IdGenerator, MemsvcError, type TenantId } from '@memsvc/core';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { isUuid } from '../ids/uuid-v7.js';
import type { MemsvcDatabase, SessionsTable } from '../schema/database-schema.js';
import { sqlStateOf, UNIQUE_VIOLATION } from './database-errors.js';
import { endDerivedCredentials } from './end-derived-credentials.js';
import { endGrantsSignedInWith, endLiveSessions } from './end-live-sessions.js';
import { lockLiveFamily } from './refresh-families.js';
import { untrustedText } from './untrusted-text.js';

// A jti is an identifier we mint ourselves (a UUID in practice): visible ASCII, no whitespace, so
// it can never carry a control character into a log line or a NUL into a text column.
const JTI_PATTERN = /^[\x21-\x7e]{1,200}$/;
const USER_AGENT_MAX_LENGTH = 512;
// An IPv6 address with a zone id is the longest form a socket reports (well under 64).
const IP_ADDRESS_MAX_LENGTH = 64;

/** The dependencies of PgSessionStore. */
export interface PgSessionStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
  /** Stamps `created_at`, and decides whether a new session's expiry lies in the future. */
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/**
 * Issued sessions in `sessions` and revoked token ids in `jwt_denylist` (spec §2.4). The denylist
 * is keyed by jti, so the check every authenticated request makes is one primary-key read.
 */
export class PgSessionStore implements SessionStore {
  readonly #db: Kysely<MemsvcDatabase>;
  readonly #clock: Clock;
  readonly #ids: IdGenerator;

  constructor(options: PgSessionStoreOptions) {
    this.#db = options.db;
    this.#clock = options.clock;
    this.#ids = options.ids;
  }

  async create(session: NewSession): Promise<SessionRecord> {
    const now = this.#clock.now();
    checkJti(session.jti);
    if (session.apiKeyId !== undefined && !isUuid(session.apiKeyId)) {
      throw new MemsvcError('INVALID_INPUT', 'apiKeyId must be the id (a UUID) of an API key', { field: 'apiKeyId' });
    }
    if (!(session.expiresAt.getTime() > now.getTime())) {
      throw new MemsvcError('INVALID_INPUT', 'expiresAt must be a time in the future', { field: 'expiresAt' });
    }
    if (session.oauthFamilyId !== undefined && !isUuid(session.oauthFamilyId)) {
      throw new MemsvcError('INVALID_INPUT', 'oauthFamilyId must be the id (a UUID) of a refresh family', { field: 'oauthFamilyId' });
    }
    try {
      const row = await this.#db.transaction().execute(async (trx) => {
        if (session.apiKeyId !== undefined) await lockUsableKey(trx, session.apiKeyId, session.userId, now);
        if (session.oauthFamilyId !== undefined) await lockLiveFamily(trx, session.oauthFamilyId, session.userId, now);
        return trx
          .insertInto('sessions')
          .values({
            id: this.#ids.next(),
            user_id: session.userId,
            jti: session.jti,
            created_at: now,
            expires_at: session.expiresAt,
            user_agent: untrustedText(session.userAgent, USER_AGENT_MAX_LENGTH),
            ip_address: untrustedText(session.ipAddress, IP_ADDRESS_MAX_LENGTH),
            api_key_id: session.apiKeyId ?? null,
            oauth_family_id: session.oauthFamilyId ?? null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return toRecord(row);
    } catch (error) {
      if (sqlStateOf(error) === UNIQUE_VIOLATION) {
        throw new MemsvcError('CONFLICT', 'a session with this jti is already recorded; mint a new token', { field: 'jti' });
      }
      throw error;
    }
  }

  async isDenied(jti: string, now: Date): Promise<boolean> {
    // deny() refuses such a jti, so it cannot be on the list; no need to ask the database.
    if (!JTI_PATTERN.test(jti)) return false;
    const row = await this.#db
      .selectFrom('jwt_denylist')
      .select(sql<number>`1`.as('denied'))
      .where('jti', '=', jti)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row !== undefined;
  }

  async deny(jti: string, expiresAt: Date, now: Date): Promise<void> {
    checkJti(jti);
    if (Number.isNaN(expiresAt.getTime())) {
      throw new MemsvcError('INVALID_INPUT', 'expiresAt must be a valid time', { field: 'expiresAt' });
    }
    await this.#db.transaction().execute(async (trx) => {
      // Denying again keeps the later expiry: a second logout can only lengthen the ban.
      await trx
        .insertInto('jwt_denylist')
        .values({ jti, expires_at: expiresAt, created_at: now })
        .onConflict((conflict) =>
          conflict.column('jti').doUpdateSet({ expires_at: sql<Date>`greatest(jwt_denylist.expires_at, excluded.expires_at)` }),
        )
        .execute();
      // The first revocation time stays, as with API keys.
      await trx.updateTable('sessions').set({ revoked_at: now }).where('jti', '=', jti).where('revoked_at', 'is', null).execute();
      // The keys made in this session end with it (a second logout finds them ended already),
      // and so do the OAuth grants consented to while signed in with it.
      await endDerivedCredentials(trx, { sessionJtis: [jti] }, now);
      await endGrantsSignedInWith(trx, [jti], now);
    });
  }

  async denyAll(userId: TenantId, now: Date): Promise<number> {
    return this.#db.transaction().execute(async (trx) => {
      const ended = await endLiveSessions(trx, { userId }, now);
      await endDerivedCredentials(trx, { sessionJtis: ended }, now);
      return ended.length;
    });
  }

  async listActive(userId: TenantId, now: Date): Promise<readonly SessionRecord[]> {
    const rows = await this.#db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toRecord);
  }
}

/**
 * The key a session is exchanged for, read again in the issuing transaction and locked `FOR
 * SHARE`: a revocation updates that row, so it either waits for this insert to commit (and then
 * ends the new session with the key's others) or has committed, and this read finds the key
 * revoked. A key checked when the request arrived but revoked before the session is written
 * therefore opens nothing, however long the request took.
 */
async function lockUsableKey(trx: Transaction<MemsvcDatabase>, apiKeyId: string, userId: TenantId, now: Date): Promise<void> {
  const key = await trx
    .selectFrom('api_keys')
    .select('user_id')
    .where('id', '=', apiKeyId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .forShare()
    .executeTakeFirst();
  if (!key || key.user_id !== userId) {
    throw new MemsvcError('UNAUTHENTICATED', 'the API key is revoked or expired; no session is issued for it', { field: 'apiKeyId' });
  }
}

function checkJti(jti: string): void {
  if (!JTI_PATTERN.test(jti)) {
    throw new MemsvcError('INVALID_INPUT', 'jti must be 1 to 200 printable ASCII characters without spaces', { field: 'jti' });
  }
}

function toRecord(row: Selectable<SessionsTable>): SessionRecord {
  return {
    id: row.id,
    userId: row.user_id as TenantId,
    jti: row.jti,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    userAgent: row.user_agent,
    ipAddress: row.ip_address,
    apiKeyId: row.api_key_id,
  };
}
