import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HTTP_STATUS_OF_ERROR, httpStatusOf, isCallerError } from '../src/http/http-status-of-error.js';

/** The codes MemsvcErrorCode declares, read from its source: a new code without a status fails here. */
function declaredErrorCodes(): string[] {
  const source = readFileSync(new URL('../../core/src/errors/memsvc-error.ts', import.meta.url), 'utf8');
  const union = /export type MemsvcErrorCode =([^;]+);/.exec(source)?.[1] ?? '';
  return [...union.matchAll(/'([A-Z_]+)'/g)].map((match) => match[1] as string);
}

describe('the HTTP status of an error code', () => {
  it('is pinned for every code: the one table every HTTP edge answers with', () => {
    expect(HTTP_STATUS_OF_ERROR).toEqual({
      INVALID_INPUT: 400,
      UNAUTHENTICATED: 401,
      FORBIDDEN: 403,
      NOT_FOUND: 404,
      ERASED: 410,
      CONFLICT: 409,
      RATE_LIMITED: 429,
      QUOTA_EXCEEDED: 429,
      DIMENSION_MISMATCH: 500,
      INVALID_CONFIG: 500,
      INTERNAL: 500,
      DATABASE_UNREACHABLE: 503,
      DATABASE_LOCKED: 503,
      STORAGE_UNAVAILABLE: 503,
    });
  });

  it('exists for every code MemsvcErrorCode declares, and for nothing else', () => {
    const declared = declaredErrorCodes();
    expect(declared.length).toBeGreaterThan(10);
    expect(Object.keys(HTTP_STATUS_OF_ERROR).sort()).toEqual([...declared].sort());
  });

  it('tells the caller’s errors (4xx) from the server’s (5xx)', () => {
    expect(httpStatusOf('CONFLICT')).toBe(409);
    expect(isCallerError('NOT_FOUND')).toBe(true);
    expect(isCallerError('RATE_LIMITED')).toBe(true);
    expect(isCallerError('STORAGE_UNAVAILABLE')).toBe(false);
    expect(isCallerError('INTERNAL')).toBe(false);
  });
});
