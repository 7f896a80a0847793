import { MemsvcError, toTenantId } from '@memsvc/core';
import { isUuid } from '@memsvc/store-pg';

/** Longest key lifetime `--expires-in-days` accepts: ten years. */
export const MAX_KEY_LIFETIME_DAYS = 3650;

/** `--expires-in-days`: a whole number of days from 1 to 3650; INVALID_INPUT names the flag. */
export function parseExpiresInDays(value: string, flag = '--expires-in-days'): number {
  const days = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(days) || days < 1 || days > MAX_KEY_LIFETIME_DAYS) {
    throw new MemsvcError('INVALID_INPUT', `${flag} must be a whole number of days from 1 to ${MAX_KEY_LIFETIME_DAYS}; got "${value}"`, {
      field: flag,
    });
  }
  return days;
}

/** A user id flag, checked as every tenant id is. */
export const parseUserFlag = (value: string, flag = '--user') => toTenantId(value, flag);

/** An organization id flag or argument: a UUID, as `memsvc orgs list` shows them. */
export function parseOrganizationId(value: string, flag: string): string {
  if (!isUuid(value)) {
    throw new MemsvcError('INVALID_INPUT', `${flag} must be an organization id (a UUID; memsvc orgs list shows them); got "${value}"`, {
      field: flag,
    });
  }
  return value;
}
