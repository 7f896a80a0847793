import type {
  Clock,
  Grantee,
  GranteeIdentity,
  GrantRequest,
  GrantStore,
  IdGenerator,
  MemoryGrant,
  SharedSpace,
  TenantId,
} from '@memsvc/core';
import { type Kysely, type Selectable, sql } from 'kysely';
import { isUuid } from '../ids/uuid-v7.js';
import type { MemoryGrantsTable, MemsvcDatabase } from '../schema/database-schema.js';
import { granteeExists } from './grantee-exists.js';

const GRANT_COLUMNS = [
  'id',
  'owner_id',
  'space',
  'grantee_kind',
  'grantee_id',
  'access',
  'granted_by',
  'created_at',
  'expires_at',
  'revoked_at',
  'revoked_by',
] as const;

type GrantRow = Pick<Selectable<MemoryGrantsTable>, (typeof GRANT_COLUMNS)[number]>;

/** The dependencies of PgGrantStore: always the primary (a standby may not have seen a revocation yet). */
export interface PgGrantStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** Shared spaces in `memory_grants` and the grantees' choices in `memory_grant_defaults` (migration 0023). */
export class PgGrantStore implements GrantStore {
  readonly #db: Kysely<MemsvcDatabase>;
  readonly #ids: IdGenerator;

  constructor(options: PgGrantStoreOptions) {
    this.#db = options.db;
    this.#ids = options.ids;
  }

  async grant(owner: TenantId, request: GrantRequest, grantedBy: string, now: Date): Promise<MemoryGrant> {
    return this.#db.transaction().execute(async (trx) => {
      // Whether the grantee exists is never asked (R-GRANT-NO-ENUMERATION): the answer, its time
      // and its failures are the same for an id nobody has yet.
      // One live grant per owner, space and grantee: a second grant replaces the first's terms.
      // The lock keeps two concurrent grants of the same pair from both inserting.
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`grant:${owner}:${request.space}`}))`.execute(trx);
      const live = await trx
        .selectFrom('memory_grants')
        .select('id')
        .where('owner_id', '=', owner)
        .where('space', '=', request.space)
        .where('grantee_kind', '=', request.grantee.kind)
        .where('grantee_id', '=', request.grantee.id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      const expiresAt = request.expiresAt ?? null;
      const row = live
        ? await trx
            .updateTable('memory_grants')
            .set({ access: request.access, expires_at: expiresAt, granted_by: grantedBy })
            .where('id', '=', live.id)
            .returning(GRANT_COLUMNS)
            .executeTakeFirstOrThrow()
        : await trx
            .insertInto('memory_grants')
            .values({
              id: this.#ids.next(),
              owner_id: owner,
              space: request.space,
              grantee_kind: request.grantee.kind,
              grantee_id: request.grantee.id,
              access: request.access,
              granted_by: grantedBy,
              created_at: now,
              expires_at: expiresAt,
            })
            .returning(GRANT_COLUMNS)
            .executeTakeFirstOrThrow();
      return toGrant(row);
    });
  }

  /**
   * Whether memsvc knows `grantee` (grantee-exists.ts). For an operator's warning only (the CLI,
   * which reads the database anyway): no path a tenant's key reaches may ask it, or grant_access
   * would tell which ids exist again.
   */
  isKnownGrantee(grantee: Grantee, now: Date): Promise<boolean> {
    return granteeExists(this.#db, grantee, now);
  }

  async revoke(owner: TenantId, grantId: string, revokedBy: string, now: Date): Promise<MemoryGrant | undefined> {
    if (!isUuid(grantId)) return undefined;
    const row = await this.#db
      .updateTable('memory_grants')
      .set({ revoked_at: now, revoked_by: revokedBy })
      .where('id', '=', grantId)
      .where('owner_id', '=', owner)
      .where('revoked_at', 'is', null)
      .returning(GRANT_COLUMNS)
      .executeTakeFirst();
    return row ? toGrant(row) : undefined;
  }

  async given(owner: TenantId, limit: number): Promise<readonly MemoryGrant[]> {
    const rows = await this.#db
      .selectFrom('memory_grants')
      .select(GRANT_COLUMNS)
      .where('owner_id', '=', owner)
      .orderBy(sql`revoked_at IS NULL`, 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toGrant);
  }

  async received(caller: GranteeIdentity, now: Date, limit: number): Promise<readonly MemoryGrant[]> {
    const rows = await this.#liveNaming(caller, now).select(GRANT_COLUMNS).orderBy('created_at', 'desc').limit(limit).execute();
    return rows.map(toGrant);
  }

  async sharedSpaces(caller: GranteeIdentity, now: Date): Promise<readonly SharedSpace[]> {
    const rows = await this.#liveNaming(caller, now)
      .select(['id', 'owner_id', 'space', 'access'])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('memory_grant_defaults as d')
              .select('d.grant_id')
              .whereRef('d.grant_id', '=', 'memory_grants.id')
              .where('d.user_id', '=', caller.tenant),
          )
          .as('by_default'),
      )
      .orderBy('owner_id')
      .orderBy('space')
      .orderBy('id')
      .execute();
    // Several grants may reach one space (to the user and to its organization): the widest access wins,
    // and the space is read by default when any of them was chosen.
    const spaces = new Map<string, SharedSpace>();
    for (const row of rows) {
      const key = `${row.owner_id}\n${row.space}`;
      const before = spaces.get(key);
      spaces.set(key, {
        owner: row.owner_id as TenantId,
        space: row.space,
        access: before?.access === 'read-write' || row.access === 'read-write' ? 'read-write' : 'read',
        grantId: before && before.access === 'read-write' ? before.grantId : row.id,
        byDefault: Boolean(before?.byDefault) || Boolean(row.by_default),
      });
    }
    return [...spaces.values()];
  }

  async chooseDefault(caller: GranteeIdentity, grantId: string, byDefault: boolean, now: Date): Promise<boolean> {
    if (!isUuid(grantId)) return false;
    const grant = await this.#liveNaming(caller, now).select(['id', 'owner_id', 'space']).where('id', '=', grantId).executeTakeFirst();
    if (!grant) return false;
    if (byDefault) {
      await this.#db
        .insertInto('memory_grant_defaults')
        .values({ grant_id: grantId, user_id: caller.tenant, created_at: now })
        .onConflict((conflict) => conflict.doNothing())
        .execute();
    } else {
      // A space is read by default when any grant reaching it was chosen (sharedSpaces): stopping
      // clears the choice on every grant of that owner's space, not only the one named.
      await this.#db
        .deleteFrom('memory_grant_defaults')
        .where('user_id', '=', caller.tenant)
        .where('grant_id', 'in', (eb) =>
          eb.selectFrom('memory_grants').select('id').where('owner_id', '=', grant.owner_id).where('space', '=', grant.space),
        )
        .execute();
    }
    return true;
  }

  /** The live grants naming the caller: the user itself, an organization it belongs to, or its API key. Never its own. */
  #liveNaming(caller: GranteeIdentity, now: Date) {
    return this.#db
      .selectFrom('memory_grants')
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .where('owner_id', '<>', caller.tenant)
      .where((eb) =>
        eb.or([
          eb.and([eb('grantee_kind', '=', 'user'), eb('grantee_id', '=', caller.tenant)]),
          eb.and([
            eb('grantee_kind', '=', 'organization'),
            eb(
              'grantee_id',
              'in',
              eb
                .selectFrom('organization_members')
                .select(sql<string>`organization_id::text`.as('organization_id'))
                .where('user_id', '=', caller.tenant),
            ),
          ]),
          ...(caller.apiKeyId === undefined ? [] : [eb.and([eb('grantee_kind', '=', 'api-key'), eb('grantee_id', '=', caller.apiKeyId)])]),
        ]),
      );
  }
}

function toGrant(row: GrantRow): MemoryGrant {
  return {
    id: row.id,
    owner: row.owner_id as TenantId,
    space: row.space,
    grantee: { kind: row.grantee_kind, id: row.grantee_id },
    access: row.access,
    grantedBy: row.granted_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    revokedBy: row.revoked_by,
  };
}
