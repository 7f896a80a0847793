import type { TenantId } from '@memsvc/core';
import { MemsvcError } from '@memsvc/core';
import { checkOrganizationName, checkOrganizationRole, checkOrganizationSlug, slugFromName } from '../domain/organization-rules.js';
import type { OrganizationMember, OrganizationRecord, OrganizationStore } from '../ports/organization-store.js';
import type { FieldNames } from './access-stores.js';

/** An organization to create: its slug is taken from the name unless given. */
export interface OrganizationRequest {
  readonly name: string;
  readonly slug?: string | undefined;
  /** Made the organization's owner in the same transaction. */
  readonly owner?: TenantId | undefined;
}

/** A checked organization request: the name and slug it will have. */
export interface CheckedOrganization {
  readonly name: string;
  readonly slug: string;
  readonly owner?: TenantId | undefined;
}

/** An organization with its members, owners first. */
export interface OrganizationWithMembers {
  readonly organization: OrganizationRecord;
  readonly members: readonly OrganizationMember[];
}

/**
 * The rules of a new organization, checked here once whoever asks (spec §2.4): a name, and a
 * slug given or taken from the name. INVALID_INPUT naming the field as the caller calls it.
 */
export function checkOrganizationRequest(request: OrganizationRequest, fields: FieldNames<'name' | 'slug'> = {}): CheckedOrganization {
  const name = checkOrganizationName(request.name, fields.name ?? 'name');
  const slugField = fields.slug ?? 'slug';
  const slug = request.slug === undefined ? slugFromName(name) : checkOrganizationSlug(request.slug, slugField);
  if (slug === undefined) {
    throw new MemsvcError('INVALID_INPUT', `${fields.name ?? 'name'} gives no usable slug (letters a–z or digits); pass ${slugField}`, {
      field: slugField,
    });
  }
  return { name, slug, owner: request.owner };
}

/** Organizations and their members: created, listed and joined through one set of rules. */
export class OrganizationAccess {
  readonly #organizations: OrganizationStore;

  constructor(organizations: OrganizationStore) {
    this.#organizations = organizations;
  }

  /** Creates an organization (and its owner's membership); CONFLICT when the slug is taken. */
  async create(request: OrganizationRequest, fields: FieldNames<'name' | 'slug'> = {}): Promise<OrganizationRecord> {
    return this.#organizations.create(checkOrganizationRequest(request, fields));
  }

  /** Every organization, newest first. */
  list(): Promise<readonly OrganizationRecord[]> {
    return this.#organizations.list();
  }

  /** Adds a member, or changes the role of one already there; the role is checked here. NOT_FOUND for an unknown organization. */
  async addMember(
    member: { readonly organizationId: string; readonly userId: TenantId; readonly role: string },
    fields: FieldNames<'role'> = {},
  ): Promise<OrganizationMember> {
    const role = checkOrganizationRole(member.role, fields.role ?? 'role');
    return this.#organizations.addMember({ organizationId: member.organizationId, userId: member.userId, role });
  }

  /** The members of an organization, owners first; NOT_FOUND naming the field for one that does not exist. */
  async members(organizationId: string, fields: FieldNames<'organizationId'> = {}): Promise<readonly OrganizationMember[]> {
    if (!(await this.#organizations.find(organizationId))) {
      throw new MemsvcError('NOT_FOUND', `no organization with id ${organizationId}`, { field: fields.organizationId ?? 'organizationId' });
    }
    return this.#organizations.members(organizationId);
  }

  /** The organizations a user belongs to, newest first, each with its members. */
  async of(userId: TenantId): Promise<readonly OrganizationWithMembers[]> {
    const organizations = await this.#organizations.organizationsOf(userId);
    return Promise.all(
      organizations.map(async (organization) => ({ organization, members: await this.#organizations.members(organization.id) })),
    );
  }

  /** The organizations a user belongs to, newest first (what a key may be made for). */
  organizationsOf(userId: TenantId): Promise<readonly OrganizationRecord[]> {
    return this.#organizations.organizationsOf(userId);
  }
}
