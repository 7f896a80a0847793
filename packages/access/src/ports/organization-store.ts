import type { TenantId } from '@memsvc/core';
import type { OrganizationRole } from '../domain/organization-rules.js';

/** An organization: a named group of users that API keys may belong to. */
export interface OrganizationRecord {
  readonly id: string;
  readonly name: string;
  /** Unique, URL-safe. */
  readonly slug: string;
  readonly createdAt: Date;
}

/** A user's membership of an organization. */
export interface OrganizationMember {
  readonly organizationId: string;
  readonly userId: TenantId;
  readonly role: OrganizationRole;
  readonly createdAt: Date;
}

/** An organization to create, optionally with its first owner. */
export interface NewOrganization {
  readonly name: string;
  readonly slug: string;
  /** Made the organization's owner in the same transaction. */
  readonly owner?: TenantId | undefined;
}

/** Organizations and their members (spec §2.4, §5.5). */
export interface OrganizationStore {
  /**
   * Creates an organization (and its owner's membership). INVALID_INPUT naming the field for a
   * bad name or slug; CONFLICT when the slug is taken. Bad input writes nothing.
   */
  create(organization: NewOrganization): Promise<OrganizationRecord>;

  /** The organization with this id, or undefined (also for an id that is not a UUID). */
  find(id: string): Promise<OrganizationRecord | undefined>;

  /** Every organization, newest first. */
  list(): Promise<readonly OrganizationRecord[]>;

  /**
   * Adds a member, or changes the role of one already there. NOT_FOUND for an organization that
   * does not exist; INVALID_INPUT naming the field for a malformed id or an unknown role.
   */
  addMember(member: {
    readonly organizationId: string;
    readonly userId: TenantId;
    readonly role: OrganizationRole;
  }): Promise<OrganizationMember>;

  /** The members of an organization, owners first, then by user id; empty for an unknown one. */
  members(organizationId: string): Promise<readonly OrganizationMember[]>;

  /**
   * The organizations a user is a member of, in any role, newest first; empty for a user in
   * none. One indexed read, so a person's own page never lists every organization to filter it.
   */
  organizationsOf(userId: TenantId): Promise<readonly OrganizationRecord[]>;
}
