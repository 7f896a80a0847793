import { API_KEY_MAX_LIFETIME_DAYS, keyLifetimeDays } from '@memsvc/access';
import { MemsvcError, type TenantId, toTenantId } from '@memsvc/core';
import { isUuid } from '@memsvc/store-pg';
import type { CliContext } from './cli-context.js';
import { readConfig } from './read-config.js';

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

/**
 * `--user` of a command about one user's memories: as given, or on the lite profile, which has
 * one user (MEMSVC_DEFAULT_USER_ID, `me` unless set), that user; on standard it must be named.
 */
export function userFlagOrLiteUser(cli: CliContext, value: string | undefined): TenantId {
  if (value !== undefined) return parseUserFlag(value);
  const { config } = readConfig(cli.env);
  if (config.profile === 'lite' && config.auth.defaultUserId !== undefined) return parseUserFlag(config.auth.defaultUserId);
  throw new MemsvcError(
    'INVALID_INPUT',
    '--user is required on the standard profile: name the user (tenant) whose memories this is about',
    {
      field: '--user',
    },
  );
}

/** An organization id flag or argument: a UUID, as `memsvc orgs list` shows them. */
export function parseOrganizationId(value: string, flag: string): string {
  if (!isUuid(value)) {
    throw new MemsvcError('INVALID_INPUT', `${flag} must be an organization id (a UUID; memsvc orgs list shows them); got "${value}"`, {
      field: flag,
    });
  }
  return value;
}
