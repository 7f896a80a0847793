import { describe, expect, it } from 'vitest';
import { bearerToken } from '../src/index.js';

describe('bearerToken', () => {
  it('takes the token of a Bearer header, whatever the case of the scheme', () => {
    expect(bearerToken('Bearer abc.def')).toBe('abc.def');
    expect(bearerToken('bearer   abc  ')).toBe('abc');
    expect(bearerToken('BEARER\tabc')).toBe('abc');
  });

  it('finds none in an absent header, another scheme or an empty token', () => {
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('')).toBeUndefined();
    expect(bearerToken('Basic dXNlcjpwYXNz')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer    ')).toBeUndefined();
    expect(bearerToken('Bearerabc')).toBeUndefined();
  });
});
