import {
  API_KEY_MAX_LIFETIME_DAYS,
  checkScopes,
  DEFAULT_KEY_SCOPES,
  keyLifetimeDays,
  type OrganizationRecord,
  SCOPES,
  type Scope,
} from '@memsvc/access';
import { MemsvcError } from '@memsvc/core';
import type { Viewer } from '../../auth/viewer.js';

/** What the create-key form holds, as typed: shown again, escaped, when it is refused. */
export interface KeyFormValues {
  readonly name: string;
  readonly scopes: readonly string[];
  readonly organizationId: string;
  readonly expiresInDays: string;
}

/** A checked request for a key of the viewer. */
export interface KeyRequest {
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly organizationId: string | undefined;
  readonly expiresInDays: number | undefined;
}

/** The scopes a viewer may put on a key: those they hold, never more (admin only for an admin). */
export function grantableScopes(viewer: Viewer): Scope[] {
  return SCOPES.filter((scope) => viewer.scopes.has(scope));
}

/** An empty form: the default scopes of a new key, as far as the viewer holds them. */
export function emptyKeyForm(viewer: Viewer): KeyFormValues {
  return { name: '', scopes: DEFAULT_KEY_SCOPES.filter((scope) => viewer.scopes.has(scope)), organizationId: '', expiresInDays: '' };
}

/** The form's fields from a parsed body (`parseBody({ all: true })`), bounded, never trusted. */
export function keyFormValues(body: Readonly<Record<string, unknown>>): KeyFormValues {
  const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : '');
  return {
    // Kept a little over the limit, so a name that is too long is refused by the rule, not cut to fit.
    name: text(body.name, 1000),
    scopes: [body.scopes ?? []]
      .flat()
      .filter((scope): scope is string => typeof scope === 'string')
      .slice(0, SCOPES.length * 2),
    organizationId: text(body.organization, 64),
    expiresInDays: text(body.expires_in_days, 16).trim(),
  };
}

/**
 * Reads the form into a key request: known scopes, an organization only among the viewer's, an
 * expiry of 1 to API_KEY_MAX_LIFETIME_DAYS whole days. The name, the scopes the viewer holds and
 * the profile are the access service's rules, the CLI's too. INVALID_INPUT with a message a
 * person can act on.
 */
export function checkKeyForm(values: KeyFormValues, organizations: readonly OrganizationRecord[]): KeyRequest {
  const name = values.name.trim();
  const scopes = checkScopes(values.scopes, 'scopes');
  const organizationId = values.organizationId === '' ? undefined : values.organizationId;
  if (organizationId !== undefined && !organizations.some((organization) => organization.id === organizationId)) {
    throw new MemsvcError('INVALID_INPUT', 'a key can belong only to an organization you are a member of', { field: 'organization' });
  }
  return { name, scopes, organizationId, expiresInDays: expiryDays(values.expiresInDays) };
}

function expiryDays(value: string): number | undefined {
  if (value === '') return undefined;
  const days = keyLifetimeDays(value);
  if (days === undefined) {
    throw new MemsvcError(
      'INVALID_INPUT',
      `expiry must be a whole number of days from 1 to ${API_KEY_MAX_LIFETIME_DAYS}, or empty for none`,
      {
        field: 'expires_in_days',
      },
    );
  }
  return days;
}
