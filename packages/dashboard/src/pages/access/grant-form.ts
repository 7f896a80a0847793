import { GRANT_ACCESS, GRANTEE_KINDS, type GrantAccess, type GranteeKind, type GrantRequest, MemsvcError } from '@memsvc/core';

/** What the share-a-space form holds, as typed: shown again, escaped, when it is refused. */
export interface GrantFormValues {
  readonly space: string;
  readonly granteeKind: string;
  readonly granteeId: string;
  readonly access: string;
  /** `YYYY-MM-DD` (an `<input type="date">`), or empty for no expiry. */
  readonly expiresOn: string;
}

/**
 * The form's fields by the names core's errors give them (`MemsvcError.data.field`), so a refusal
 * can say which field was wrong and mark it. The owner is never one: it is the signed-in viewer.
 */
export const GRANT_FORM_FIELDS = {
  space: { name: 'space', label: 'Space' },
  grantee: { name: 'grantee_id', label: 'Grantee' },
  access: { name: 'access', label: 'Access' },
  expiresAt: { name: 'expires_on', label: 'Expires on' },
} as const;

export type GrantFormField = keyof typeof GRANT_FORM_FIELDS;

/** An empty form: read access to a user, the least a share can give. */
export function emptyGrantForm(): GrantFormValues {
  return { space: '', granteeKind: 'user', granteeId: '', access: 'read', expiresOn: '' };
}

/** The form's fields from a parsed body, bounded, never trusted. */
export function grantFormValues(body: Readonly<Record<string, unknown>>): GrantFormValues {
  const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : '');
  return {
    // A little over each limit, so a value that is too long is refused by core's rule, not cut to fit.
    space: text(body.space, 300),
    granteeKind: text(body.grantee_kind, 32),
    granteeId: text(body.grantee_id, 200),
    access: text(body.access, 32),
    expiresOn: text(body.expires_on, 32).trim(),
  };
}

/**
 * The form as the engine's request. Only what the form alone can tell is checked here (a kind,
 * an access level and a date it offers); every rule of a grant (the space, the grantee, not
 * oneself, an expiry ahead and within MAX_GRANT_DAYS) is core's checkGrantRequest, as for the tools.
 */
export function grantRequestOf(values: GrantFormValues): GrantRequest {
  if (!(GRANTEE_KINDS as readonly string[]).includes(values.granteeKind)) {
    throw new MemsvcError('INVALID_INPUT', `the grantee must be one of ${GRANTEE_KINDS.join(', ')}`, { field: 'grantee' });
  }
  if (!(GRANT_ACCESS as readonly string[]).includes(values.access)) {
    throw new MemsvcError('INVALID_INPUT', `access must be one of ${GRANT_ACCESS.join(', ')}`, { field: 'access' });
  }
  return {
    space: values.space,
    grantee: { kind: values.granteeKind as GranteeKind, id: values.granteeId },
    access: values.access as GrantAccess,
    expiresAt: expiryOf(values.expiresOn),
  };
}

/** The field a refusal names, when it is one of the form's. */
export function grantFormFieldOf(error: MemsvcError): GrantFormField | undefined {
  const field = error.data.field;
  return typeof field === 'string' && Object.hasOwn(GRANT_FORM_FIELDS, field) ? (field as GrantFormField) : undefined;
}

/**
 * A date as the moment the grant ends: the start of that day in UTC, as `memsvc grants create
 * --expires 2027-01-01` reads it, so the page and the CLI mean the same day.
 */
function expiryOf(value: string): Date | undefined {
  if (value === '') return undefined;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : undefined;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw new MemsvcError('INVALID_INPUT', 'the expiry must be a date (YYYY-MM-DD), or empty for none', { field: 'expiresAt' });
  }
  return date;
}
