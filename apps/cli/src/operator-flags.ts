import { API_KEY_MAX_LIFETIME_DAYS, keyLifetimeDays } from '@memsvc/access';
import { MemsvcError, toTenantId } from '@memsvc/core';
import { isUuid } from '@memsvc/store-pg';

/** `--expires-in-days`: a key lifetime in whole days (core's bound); INVALID_INPUT names the flag. */
export function parseExpiresInDays(value: string, flag = '--expires-in-days'): number {
  const days = keyLifetimeDays(value);
  if (days === undefined) {
    throw new MemsvcError(
      'INVALID_INPUT',
      `${flag} must be a whole number of days from 1 to ${API_KEY_MAX_LIFETIME_DAYS}; got "${value}"`,
      {
        field: flag,
      },
    );
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
