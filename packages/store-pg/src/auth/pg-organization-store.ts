import {
  checkOrganizationName,
  checkOrganizationRole,
  checkOrganizationSlug,
  type NewOrganization,
  type OrganizationMember,
  type OrganizationRecord,
  type OrganizationRole,
  type OrganizationStore,
} from '@memsvc/access';
import { type Clock, type IdGenerator, MemsvcError, type TenantId } from '@memsvc/core';
import { type Kysely, type Selectable, sql } from 'kysely';
import { isUuid } from '../ids/uuid-v7.js';
import type { MemsvcDatabase, OrganizationMembersTable, OrganizationsTable } from '../schema/database-schema.js';
import { FOREIGN_KEY_VIOLATION, sqlStateOf, UNIQUE_VIOLATION } from './database-errors.js';

const ORGANIZATION_COLUMNS = ['id', 'name', 'slug', 'created_at'] as const;

/** The dependencies of PgOrganizationStore. */
export interface PgOrganizationStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** Organizations and their members in `organizations` and `organization_members` (spec §2.4). */
export class PgOrganizationStore implements OrganizationStore {
  readonly #db: Kysely<MemsvcDatabase>;
  readonly #clock: Clock;
  readonly #ids: IdGenerator;

  constructor(options: PgOrganizationStoreOptions) {
    this.#db = options.db;
    this.#clock = options.clock;
    this.#ids = options.ids;
  }

  async create(organization: NewOrganization): Promise<OrganizationRecord> {
    checkOrganizationName(organization.name, 'name');
    checkOrganizationSlug(organization.slug, 'slug');
    const now = this.#clock.now();
    try {
      const row = await this.#db.transaction().execute(async (trx) => {
        const created = await trx
          .insertInto('organizations')
          .values({ id: this.#ids.next(), name: organization.name, slug: organization.slug, created_at: now, updated_at: now })
          .returning(ORGANIZATION_COLUMNS)
          .executeTakeFirstOrThrow();
        if (organization.owner !== undefined) {
          await trx
            .insertInto('organization_members')
            .values({ organization_id: created.id, user_id: organization.owner, role: 'owner', created_at: now })
            .execute();
        }
        return created;
      });
      return toOrganization(row);
    } catch (error) {
      if (sqlStateOf(error) === UNIQUE_VIOLATION) {
        throw new MemsvcError('CONFLICT', `an organization with the slug "${organization.slug}" already exists`, { field: 'slug' });
      }
      throw error;
    }
  }

  async find(id: string): Promise<OrganizationRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await this.#db.selectFrom('organizations').select(ORGANIZATION_COLUMNS).where('id', '=', id).executeTakeFirst();
    return row ? toOrganization(row) : undefined;
  }

  async list(): Promise<readonly OrganizationRecord[]> {
    const rows = await this.#db
      .selectFrom('organizations')
      .select(ORGANIZATION_COLUMNS)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toOrganization);
  }

  async addMember(member: {
    readonly organizationId: string;
    readonly userId: TenantId;
    readonly role: OrganizationRole;
  }): Promise<OrganizationMember> {
    if (!isUuid(member.organizationId)) {
      throw new MemsvcError('INVALID_INPUT', 'organizationId must be the UUID of an organization', { field: 'organizationId' });
    }
    const role = checkOrganizationRole(member.role, 'role');
    try {
      const row = await this.#db
        .insertInto('organization_members')
        .values({ organization_id: member.organizationId, user_id: member.userId, role, created_at: this.#clock.now() })
        .onConflict((conflict) => conflict.columns(['organization_id', 'user_id']).doUpdateSet({ role }))
        .returningAll()
        .executeTakeFirstOrThrow();
      return toMember(row);
    } catch (error) {
      if (sqlStateOf(error) === FOREIGN_KEY_VIOLATION) {
        throw new MemsvcError('NOT_FOUND', `no organization with id ${member.organizationId}`, { field: 'organizationId' });
      }
      throw error;
    }
  }

  async members(organizationId: string): Promise<readonly OrganizationMember[]> {
    if (!isUuid(organizationId)) return [];
    const rows = await this.#db
      .selectFrom('organization_members')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy(sql`CASE role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END`)
      .orderBy('user_id')
      .execute();
    return rows.map(toMember);
  }

  async organizationsOf(userId: TenantId): Promise<readonly OrganizationRecord[]> {
    const rows = await this.#db
      .selectFrom('organizations')
      .innerJoin('organization_members', 'organization_members.organization_id', 'organizations.id')
      .select(['organizations.id', 'organizations.name', 'organizations.slug', 'organizations.created_at'])
      .where('organization_members.user_id', '=', userId)
      .orderBy('organizations.created_at', 'desc')
      .orderBy('organizations.id', 'desc')
      .execute();
    return rows.map(toOrganization);
  }
}

function toOrganization(row: Pick<Selectable<OrganizationsTable>, (typeof ORGANIZATION_COLUMNS)[number]>): OrganizationRecord {
  return { id: row.id, name: row.name, slug: row.slug, createdAt: row.created_at };
}

function toMember(row: Selectable<OrganizationMembersTable>): OrganizationMember {
  return { organizationId: row.organization_id, userId: row.user_id as TenantId, role: row.role, createdAt: row.created_at };
}
