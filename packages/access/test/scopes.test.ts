import { isMemsvcError, type MemsvcError } from '@memsvc/core';
import { describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import {
  API_KEY_MAX_LIFETIME_DAYS,
  checkApiKeyName,
  checkKeyScopesHeld,
  checkOrganizationRole,
  checkOrganizationSlug,
  DEFAULT_KEY_SCOPES,
  keyLifetimeDays,
  parseScopes,
  SCOPES,
  slugFromName,
} from '../src/index.js';

/** The MemsvcError a call throws, or a failure when it throws none. */
function thrownBy(call: () => unknown): MemsvcError {
  try {
    call();
  } catch (error) {
    if (isMemsvcError(error)) return error;
    throw error;
  }
  throw new Error('expected a MemsvcError');
}

describe('scopes', () => {
  it(verifies('AUTH-SCOPES', 'trims, drops repeats and blank entries, and lists them in canonical order'), () => {
    expect(parseScopes(' admin , memories:read,memories:read,, ')).toEqual(['memories:read', 'admin']);
    expect(parseScopes(SCOPES.join(','))).toEqual([...SCOPES]);
    expect(DEFAULT_KEY_SCOPES).toEqual(['memories:read', 'memories:write']);
  });

  it(verifies('AUTH-SCOPES', 'refuses an unknown scope or an empty list, naming the field and the allowed values'), () => {
    for (const csv of ['memories:read,memories:admin', 'MEMORIES:READ', '', ' , ']) {
      const error = thrownBy(() => parseScopes(csv, '--scopes'));
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.data.field).toBe('--scopes');
      expect(error.message).toContain('--scopes');
      expect(error.message).toContain('memories:read, memories:write, memories:delete, keys:manage, admin');
    }
    expect(thrownBy(() => parseScopes('nope')).data.field).toBe('scopes');
  });
});

describe('API key and organization fields', () => {
  it(verifies('AUTH-KEY-INPUT', 'a key name is 1–100 characters, not blank, without control characters'), () => {
    expect(checkApiKeyName('ci agent ✓')).toBe('ci agent ✓');
    expect(checkApiKeyName('x'.repeat(100))).toHaveLength(100);
    for (const name of ['', '   ', 'x'.repeat(101), ' padded', 'bell\u0007', 'escape\u001b[2J']) {
      const error = thrownBy(() => checkApiKeyName(name, '--name'));
      expect([error.code, error.data.field]).toEqual(['INVALID_INPUT', '--name']);
    }
  });

  it(verifies('AUTH-ORG', 'slugs are lowercase words joined by hyphens; names suggest one'), () => {
    expect(slugFromName('Acme Robotics, Inc.')).toBe('acme-robotics-inc');
    expect(slugFromName('Crème Brûlée')).toBe('creme-brulee');
    expect(slugFromName('日本')).toBeUndefined();
    expect(slugFromName(`${'a'.repeat(63)} b`)).toBe('a'.repeat(63));
    expect(checkOrganizationSlug('acme-1')).toBe('acme-1');
    for (const slug of ['', '-acme', 'acme-', 'Acme', 'a b', 'a'.repeat(65)]) {
      expect(thrownBy(() => checkOrganizationSlug(slug)).data.field).toBe('slug');
    }
  });

  it(verifies('AUTH-ORG', 'a role is owner, admin or member'), () => {
    expect(checkOrganizationRole('admin')).toBe('admin');
    const error = thrownBy(() => checkOrganizationRole('root', '--role'));
    expect([error.code, error.data.field]).toEqual(['INVALID_INPUT', '--role']);
    expect(error.message).toContain('owner, admin, member');
  });

  it(verifies('AUTH-KEY-INPUT', 'a key lifetime is a whole number of days from 1 to ten years, whatever surface it is typed in'), () => {
    expect([keyLifetimeDays('1'), keyLifetimeDays(' 30 '), keyLifetimeDays(String(API_KEY_MAX_LIFETIME_DAYS))]).toEqual([1, 30, 3650]);
    for (const refused of ['0', '3651', '99999', '-1', '1.5', '1e3', '', 'thirty', '0x10'])
      expect(keyLifetimeDays(refused), refused).toBeUndefined();
  });

  it(verifies('AUTH-KEY-SCOPES-HELD', 'a key is given only scopes its maker holds; a scope withheld is refused naming it'), () => {
    expect(checkKeyScopesHeld(['memories:read'], ['memories:read', 'memories:write'])).toEqual(['memories:read']);
    expect(checkKeyScopesHeld([...SCOPES], SCOPES)).toEqual([...SCOPES]);
    const error = thrownBy(() => checkKeyScopesHeld(['memories:read', 'admin'], ['memories:read'], 'scopes'));
    expect([error.code, error.data.field, error.message]).toEqual([
      'INVALID_INPUT',
      'scopes',
      'a key cannot have a scope you do not hold: admin',
    ]);
  });
});
