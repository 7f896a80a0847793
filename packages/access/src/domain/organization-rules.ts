import { MemsvcError } from '@memsvc/core';
import { checkDisplayName } from './display-name.js';

/** What a member may do in an organization. */
export type OrganizationRole = 'owner' | 'admin' | 'member';

/** Every role, most powerful first. */
export const ORGANIZATION_ROLES: readonly OrganizationRole[] = Object.freeze(['owner', 'admin', 'member']);

/** Longest organization name. */
export const ORGANIZATION_NAME_MAX_LENGTH = 100;

/** Longest organization slug. */
export const ORGANIZATION_SLUG_MAX_LENGTH = 64;

const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/** Checks an organization name (1–100 characters, not blank); INVALID_INPUT names `field`. */
export function checkOrganizationName(name: string, field = 'name'): string {
  return checkDisplayName(name, field, ORGANIZATION_NAME_MAX_LENGTH);
}

/**
 * Checks an organization slug: 1–64 lowercase letters, digits and inner hyphens, so it can sit
 * in a URL or a file name unescaped. INVALID_INPUT names `field`.
 */
export function checkOrganizationSlug(slug: string, field = 'slug'): string {
  if (slug.length > ORGANIZATION_SLUG_MAX_LENGTH || !SLUG_PATTERN.test(slug)) {
    throw new MemsvcError(
      'INVALID_INPUT',
      `${field} must be 1 to ${ORGANIZATION_SLUG_MAX_LENGTH} lowercase letters, digits and hyphens, starting and ending with a letter or digit`,
      { field },
    );
  }
  return slug;
}

/**
 * The slug a name suggests: lowercased, accents dropped, every other run of characters a
 * hyphen, cut to the longest slug. Undefined when nothing usable is left (a name of only
 * symbols or of a non-Latin script), so the caller asks for a slug instead.
 */
export function slugFromName(name: string): string | undefined {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, ORGANIZATION_SLUG_MAX_LENGTH)
    .replace(/^-+|-+$/g, '');
  return slug === '' ? undefined : slug;
}

/** Checks a role; INVALID_INPUT names `field` and the allowed roles. */
export function checkOrganizationRole(role: string, field = 'role'): OrganizationRole {
  if (!(ORGANIZATION_ROLES as readonly string[]).includes(role)) {
    throw new MemsvcError('INVALID_INPUT', `${field} must be one of: ${ORGANIZATION_ROLES.join(', ')}; got "${role}"`, {
      field,
      allowed: ORGANIZATION_ROLES,
    });
  }
  return role as OrganizationRole;
}
