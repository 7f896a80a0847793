import { MemsvcError } from '@memsvc/core';

/**
 * What a credential may do (DESIGN §4b: authorisation checks the scopes of each tool). Read,
 * write and delete of the caller's own memories; `keys:manage` to mint and revoke the caller's
 * own API keys and end their sessions (the dashboard's Access page), held by a person signed in
 * with an identity provider and by no key unless it was given it; and `admin` for the operator
 * tools.
 */
export type Scope = 'memories:read' | 'memories:write' | 'memories:delete' | 'keys:manage' | 'admin';

/** Every scope, in the order they are listed and stored. */
export const SCOPES: readonly Scope[] = Object.freeze(['memories:read', 'memories:write', 'memories:delete', 'keys:manage', 'admin']);

/** The scopes of a new API key when none are asked for: least privilege for an agent that remembers. */
export const DEFAULT_KEY_SCOPES: readonly Scope[] = Object.freeze(['memories:read', 'memories:write']);

/** Whether a string is one of the known scopes. */
export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * Parses a comma-separated list of scopes (a CLI flag, a form field): each entry trimmed, blank
 * entries and repeats dropped, the result in `SCOPES` order. An unknown scope or an empty list
 * is INVALID_INPUT naming `field` and the allowed values.
 */
export function parseScopes(csv: string, field = 'scopes'): Scope[] {
  return checkScopes(
    csv.split(',').map((entry) => entry.trim()),
    field,
  );
}

/**
 * Checks a list of scopes the same way (blank entries and repeats dropped, `SCOPES` order),
 * for callers that already hold an array, such as a store about to write one.
 */
export function checkScopes(values: readonly string[], field = 'scopes'): Scope[] {
  const wanted = new Set<string>();
  for (const value of values) {
    if (value === '') continue;
    if (!isScope(value)) {
      throw new MemsvcError('INVALID_INPUT', `${field}: unknown scope "${value}"; allowed: ${SCOPES.join(', ')}`, {
        field,
        allowed: SCOPES,
      });
    }
    wanted.add(value);
  }
  if (wanted.size === 0) {
    throw new MemsvcError('INVALID_INPUT', `${field} must name at least one scope of: ${SCOPES.join(', ')}`, { field, allowed: SCOPES });
  }
  return SCOPES.filter((scope) => wanted.has(scope));
}
