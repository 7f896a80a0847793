import { describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { addressBucketOf } from '../src/domain/address-bucket.js';
import { type RateLimitSettings, rateLimitBuckets } from '../src/index.js';

const settings = (ipv6Prefix: number): RateLimitSettings => ({
  enabled: true,
  windowSeconds: 60,
  userPerWindow: 120,
  orgPerWindow: 6000,
  ipPerWindow: 60,
  ipv6Prefix,
  toolOverrides: { memory_recall: { limit: 10, windowSeconds: 30 } },
});
const keysOf = (ip: string, prefix = 64) => rateLimitBuckets({ ip }, 'memory_recall', settings(prefix)).map((bucket) => bucket.key);

describe('per-address buckets', () => {
  it(verifies('R-EDGE-IPV6-NETWORK', 'two IPv6 addresses in one /64 share every bucket; in different /64s they do not'), () => {
    expect(keysOf('2001:db8:1:2::1')).toEqual(keysOf('2001:db8:1:2:ffff:ffff:ffff:fffe'));
    expect(keysOf('2001:db8:1:2::1')).toEqual(keysOf('2001:DB8:1:2:0:0:0:9'));
    expect(keysOf('2001:db8:1:2::1')).not.toEqual(keysOf('2001:db8:1:3::1'));
    expect(keysOf('2001:db8:1:2::1')).toEqual(['ip:2001:db8:1:2:0:0:0:0/64', 'tool:memory_recall:ip:2001:db8:1:2:0:0:0:0/64']);
  });

  it(verifies('R-EDGE-IPV6-NETWORK', 'the network size follows RATE_LIMIT_IPV6_PREFIX, to the bit'), () => {
    expect(keysOf('2001:db8:1:2::1', 48)).toEqual(keysOf('2001:db8:1:ff00::1', 48));
    expect(keysOf('2001:db8:1:2::1', 48)).not.toEqual(keysOf('2001:db8:2:2::1', 48));
    expect(addressBucketOf('2001:db8:ffff::', 33)).toBe('2001:db8:8000:0:0:0:0:0/33');
    expect(addressBucketOf('2001:db8::1', 128)).toBe('2001:db8:0:0:0:0:0:1/128');
    expect(keysOf('2001:db8::1', 128)).not.toEqual(keysOf('2001:db8::2', 128));
    expect(addressBucketOf('ffff::1', 1)).toBe('8000:0:0:0:0:0:0:0/1');
  });

  it(verifies('R-EDGE-IPV6-NETWORK', 'an IPv4-mapped IPv6 address counts as its IPv4 address; IPv4 addresses each count alone'), () => {
    expect(keysOf('::ffff:203.0.113.7')).toEqual(keysOf('203.0.113.7'));
    expect(keysOf('::FFFF:203.0.113.7')).toEqual(['ip:203.0.113.7', 'tool:memory_recall:ip:203.0.113.7']);
    expect(keysOf('203.0.113.7')).not.toEqual(keysOf('203.0.113.8'));
    // An IPv4 address embedded in another IPv6 form is IPv6, counted by its network.
    expect(addressBucketOf('64:ff9b::203.0.113.7', 96)).toBe('64:ff9b:0:0:0:0:0:0/96');
  });
});
