import { isMemsvcError } from '@memsvc/core';
import { describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { retryAfterSeconds } from '../src/domain/rate-limits.js';
import {
  checkRateLimitBucket,
  type RateLimitBucket,
  type RateLimitSettings,
  rateLimitBuckets,
  refusedDecision,
  windowStartOf,
} from '../src/index.js';

const settings: RateLimitSettings = {
  enabled: true,
  windowSeconds: 60,
  userPerWindow: 120,
  orgPerWindow: 6000,
  ipPerWindow: 60,
  ipv6Prefix: 64,
  toolOverrides: { memory_recall: { limit: 10, windowSeconds: 30 }, 'odd:tool': { limit: 5, windowSeconds: 600 } },
};

describe('rate-limit buckets', () => {
  it(verifies('RATE-BUCKETS', 'counts an authenticated caller as its user and its organization'), () => {
    expect(rateLimitBuckets({ userId: 'alice', organizationId: 'acme', ip: '203.0.113.7' }, 'memory_store', settings)).toEqual([
      { kind: 'user', key: 'user:alice', limit: 120, windowSeconds: 60 },
      { kind: 'org', key: 'org:acme', limit: 6000, windowSeconds: 60 },
    ]);
    // No organization, no organization bucket; the address of an authenticated caller does not count.
    for (const organizationId of [null, undefined, '']) {
      expect(rateLimitBuckets({ userId: 'alice', organizationId, ip: '203.0.113.7' }, undefined, settings)).toEqual([
        { kind: 'user', key: 'user:alice', limit: 120, windowSeconds: 60 },
      ]);
    }
  });

  it(verifies('RATE-BUCKETS', 'counts a caller that is not authenticated by its IP address'), () => {
    expect(rateLimitBuckets({ ip: '2001:db8::1' }, undefined, settings)).toEqual([
      { kind: 'ip', key: 'ip:2001:db8:0:0:0:0:0:0/64', limit: 60, windowSeconds: 60 },
    ]);
    expect(rateLimitBuckets({ userId: '', organizationId: 'acme', ip: '203.0.113.7' }, undefined, settings)).toEqual([
      { kind: 'ip', key: 'ip:203.0.113.7', limit: 60, windowSeconds: 60 },
    ]);
  });

  it(verifies('RATE-BUCKETS', 'adds a bucket of its own for a tool with an override, on top of the general ones'), () => {
    expect(rateLimitBuckets({ userId: 'alice', organizationId: 'acme' }, 'memory_recall', settings)).toEqual([
      { kind: 'user', key: 'user:alice', limit: 120, windowSeconds: 60 },
      { kind: 'org', key: 'org:acme', limit: 6000, windowSeconds: 60 },
      { kind: 'tool', key: 'tool:memory_recall:user:alice', limit: 10, windowSeconds: 30 },
    ]);
    expect(rateLimitBuckets({ ip: '203.0.113.7' }, 'memory_recall', settings)).toEqual([
      { kind: 'ip', key: 'ip:203.0.113.7', limit: 60, windowSeconds: 60 },
      { kind: 'tool', key: 'tool:memory_recall:ip:203.0.113.7', limit: 10, windowSeconds: 30 },
    ]);
    // Colons in a tool name are escaped, so the key still reads as one (tool, caller) pair.
    expect(rateLimitBuckets({ userId: 'bob' }, 'odd:tool', settings).at(-1)?.key).toBe('tool:odd%3Atool:user:bob');
  });

  it(
    verifies('RATE-BUCKETS', 'no buckets when the limiter is off, for a caller with neither user nor address, or for inherited names'),
    () => {
      expect(rateLimitBuckets({ userId: 'alice', organizationId: 'acme' }, 'memory_recall', { ...settings, enabled: false })).toEqual([]);
      expect(rateLimitBuckets({}, 'memory_recall', settings)).toEqual([]);
      for (const tool of ['constructor', 'toString', '__proto__', 'memory_store']) {
        expect(rateLimitBuckets({ userId: 'alice' }, tool, settings), tool).toHaveLength(1);
      }
    },
  );
});

describe('fixed windows', () => {
  it(verifies('RATE-WINDOW', 'aligns windows to the epoch, start inclusive'), () => {
    expect(windowStartOf(new Date('2026-05-01T09:00:59.999Z'), 60)).toEqual(new Date('2026-05-01T09:00:00.000Z'));
    expect(windowStartOf(new Date('2026-05-01T09:01:00.000Z'), 60)).toEqual(new Date('2026-05-01T09:01:00.000Z'));
    expect(windowStartOf(new Date('2026-05-01T09:17:30.000Z'), 3600)).toEqual(new Date('2026-05-01T09:00:00.000Z'));
    // A window that does not divide an hour is still aligned to the epoch, not to the hour.
    expect(windowStartOf(new Date('1970-01-01T00:02:00.000Z'), 7)).toEqual(new Date('1970-01-01T00:01:59.000Z'));
  });

  it(verifies('RATE-WINDOW', 'says to retry when the window ends, rounded up to whole seconds and at least 1'), () => {
    const start = new Date('2026-05-01T09:00:00.000Z');
    expect(retryAfterSeconds(start, start, 60)).toBe(60);
    expect(retryAfterSeconds(new Date('2026-05-01T09:00:00.001Z'), start, 60)).toBe(60);
    expect(retryAfterSeconds(new Date('2026-05-01T09:00:58.500Z'), start, 60)).toBe(2);
    expect(retryAfterSeconds(new Date('2026-05-01T09:00:59.999Z'), start, 60)).toBe(1);
    expect(retryAfterSeconds(new Date('2026-05-01T09:01:05.000Z'), start, 60)).toBe(1);
  });

  it(verifies('RATE-WINDOW', 'of several refusing buckets, reports the one whose window ends last'), () => {
    const now = new Date('2026-05-01T09:00:50.000Z');
    const user: RateLimitBucket = { kind: 'user', key: 'user:alice', limit: 1, windowSeconds: 60 };
    const tool: RateLimitBucket = { kind: 'tool', key: 'tool:t:user:alice', limit: 1, windowSeconds: 600 };
    const org: RateLimitBucket = { kind: 'org', key: 'org:acme', limit: 1, windowSeconds: 60 };
    expect(refusedDecision([user, tool], now)).toEqual({ admitted: false, retryAfterSeconds: 550, refusedBy: 'tool' });
    expect(refusedDecision([user, org], now)).toEqual({ admitted: false, retryAfterSeconds: 10, refusedBy: 'user' });
    expect(() => refusedDecision([], now)).toThrow();
  });
});

describe('bucket input', () => {
  const good: RateLimitBucket = { kind: 'user', key: 'user:alice', limit: 1, windowSeconds: 1 };

  it(verifies('RATE-INPUT', 'refuses an empty key or a limit or window that is not a positive whole number, naming the field'), () => {
    const cases: [Partial<RateLimitBucket>, string][] = [
      [{ key: '' }, 'key'],
      [{ limit: 0 }, 'limit'],
      [{ limit: -1 }, 'limit'],
      [{ limit: 1.5 }, 'limit'],
      [{ limit: Number.NaN }, 'limit'],
      [{ limit: 2 ** 31 }, 'limit'],
      [{ windowSeconds: 0 }, 'windowSeconds'],
      [{ windowSeconds: -60 }, 'windowSeconds'],
      [{ windowSeconds: 0.5 }, 'windowSeconds'],
      [{ windowSeconds: Number.POSITIVE_INFINITY }, 'windowSeconds'],
    ];
    for (const [overrides, field] of cases) {
      let caught: unknown;
      try {
        checkRateLimitBucket({ ...good, ...overrides });
      } catch (error) {
        caught = error;
      }
      expect(isMemsvcError(caught, 'INVALID_INPUT'), JSON.stringify(overrides)).toBe(true);
      expect((caught as { data: { field: string } }).data.field).toBe(field);
    }
    expect(checkRateLimitBucket({ ...good, limit: 2 ** 31 - 1, windowSeconds: 86_400 })).toMatchObject({ limit: 2 ** 31 - 1 });
  });
});
