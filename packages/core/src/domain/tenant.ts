import { MemsvcError } from '../errors/memsvc-error.js';

declare const tenantBrand: unique symbol;

/**
 * The owner of memories: every store method takes one, and every query filters on it. The brand
 * means a TenantId can only come from `toTenantId`, so an unchecked string never reaches SQL as
 * a tenant.
 */
export type TenantId = string & { readonly [tenantBrand]: true };

/** Longest accepted tenant id. */
export const TENANT_ID_MAX_LENGTH = 128;

// Letters, digits and the separators that user ids, emails and `org/agent` names use. Unlike an
// earlier implementation we accept hyphens, dots, @ and slashes: callers should not have to
// re-encode their own user ids to fit a CUID.
const TENANT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@/+-]*$/;

/** Validates a tenant id, throwing INVALID_INPUT that names `field` when it is not acceptable. */
export function toTenantId(value: string, field = 'userId'): TenantId {
  if (value.length === 0 || value.length > TENANT_ID_MAX_LENGTH) {
    throw new MemsvcError('INVALID_INPUT', `${field} must be 1 to ${TENANT_ID_MAX_LENGTH} characters long`, { field });
  }
  if (!TENANT_ID_PATTERN.test(value)) {
    throw new MemsvcError('INVALID_INPUT', `${field} may contain letters, digits and . _ : @ / + - and must start with a letter or digit`, {
      field,
    });
  }
  return value as TenantId;
}

/** The same check as a predicate, for configuration parsing. */
export function isValidTenantId(value: string): boolean {
  return value.length > 0 && value.length <= TENANT_ID_MAX_LENGTH && TENANT_ID_PATTERN.test(value);
}
