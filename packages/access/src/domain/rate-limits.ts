import { MemsvcError } from '@memsvc/core';
import { addressBucketOf } from './address-bucket.js';

/** A per-tool rate limit from `RATE_LIMIT_TOOL_OVERRIDES`. */
export interface ToolRateLimit {
  readonly limit: number;
  readonly windowSeconds: number;
}

/** The limiter's settings (RATE_LIMIT_* variables, spec §8). */
export interface RateLimitSettings {
  readonly enabled: boolean;
  readonly windowSeconds: number;
  readonly userPerWindow: number;
  readonly orgPerWindow: number;
  readonly ipPerWindow: number;
  /** RATE_LIMIT_IPV6_PREFIX: IPv6 clients are counted per network of this many leading bits (1..128). */
  readonly ipv6Prefix: number;
  readonly toolOverrides: Readonly<Record<string, ToolRateLimit>>;
}

/** Whose calls a bucket counts: what a refusal reports, so the edge can say which limit was hit. */
export type RateLimitBucketKind = 'user' | 'org' | 'ip' | 'tool';

/**
 * One fixed-window counter a call is counted in (spec §8): at most `limit` calls per window of
 * `windowSeconds`. The key names whose calls these are; it is not a secret, and a store that
 * bounds the length of its keys shortens long ones itself (core has no hash it may trust).
 */
export interface RateLimitBucket {
  readonly kind: RateLimitBucketKind;
  /** `user:<userId>`, `org:<orgId>`, `ip:<address or IPv6 network>`, `tool:<tool>:user:<userId>` or `tool:<tool>:ip:<address or IPv6 network>`. */
  readonly key: string;
  /** Most calls admitted per window: a positive whole number. */
  readonly limit: number;
  /** Length of the window in seconds: a positive whole number. */
  readonly windowSeconds: number;
}

/** Who is calling, as far as the rate limiter cares. An empty string counts as absent. */
export interface RateLimitCaller {
  /** Set when the call is authenticated. */
  readonly userId?: string | undefined;
  readonly organizationId?: string | null | undefined;
  /** The client address; only counted for a caller that is not authenticated, IPv6 by its network (RATE_LIMIT_IPV6_PREFIX). */
  readonly ip?: string | undefined;
}

/** The verdict on one call. */
export interface RateLimitDecision {
  readonly admitted: boolean;
  /** Whole seconds until the refusing window ends (at least 1); 0 when admitted. */
  readonly retryAfterSeconds: number;
  /** The kind of bucket that refused: 'user' | 'org' | 'ip' | 'tool'. Absent when admitted. */
  readonly refusedBy?: RateLimitBucketKind;
}

/** The decision for a call every bucket had room for. */
export const ADMITTED: RateLimitDecision = Object.freeze({ admitted: true, retryAfterSeconds: 0 });

/**
 * The buckets one call counts against (spec §8). An authenticated caller is counted as its user
 * and, when it belongs to one, its organization (which aggregates all its users); anyone else by
 * IP address (an IPv6 one by its network, see addressBucketOf). A tool with an override adds a bucket of its own for the same caller: the call
 * still counts against the general buckets. No buckets when the limiter is off, or for a caller
 * with neither a user nor an address (stdio), which is then not limited.
 */
export function rateLimitBuckets(caller: RateLimitCaller, tool: string | undefined, settings: RateLimitSettings): RateLimitBucket[] {
  if (!settings.enabled) return [];
  const window = settings.windowSeconds;
  const buckets: RateLimitBucket[] = [];
  let who: string;
  if (caller.userId) {
    who = `user:${caller.userId}`;
    buckets.push({ kind: 'user', key: who, limit: settings.userPerWindow, windowSeconds: window });
    if (caller.organizationId) {
      buckets.push({ kind: 'org', key: `org:${caller.organizationId}`, limit: settings.orgPerWindow, windowSeconds: window });
    }
  } else if (caller.ip) {
    who = `ip:${addressBucketOf(caller.ip, settings.ipv6Prefix)}`;
    buckets.push({ kind: 'ip', key: who, limit: settings.ipPerWindow, windowSeconds: window });
  } else {
    return [];
  }
  // hasOwn: a tool called `constructor` must not find Object.prototype's.
  const override = tool !== undefined && Object.hasOwn(settings.toolOverrides, tool) ? settings.toolOverrides[tool] : undefined;
  if (override) {
    // The tool name is the one part followed by more key: escaping its colons keeps
    // `tool:a:user:b` from meaning two different (tool, caller) pairs.
    buckets.push({ kind: 'tool', key: `tool:${encodeURIComponent(tool ?? '')}:${who}`, ...override });
  }
  return buckets;
}

/**
 * The start of the fixed window `now` falls in. Windows are aligned to the Unix epoch, so every
 * replica computes the same window for the same instant without talking to the others.
 */
export function windowStartOf(now: Date, windowSeconds: number): Date {
  const windowMs = windowSeconds * 1000;
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs);
}

/** Whole seconds from `now` until the window ends, rounded up and at least 1 (a Retry-After value). */
export function retryAfterSeconds(now: Date, windowStart: Date, windowSeconds: number): number {
  const remainingMs = windowStart.getTime() + windowSeconds * 1000 - now.getTime();
  return Math.max(1, Math.ceil(remainingMs / 1000));
}

/**
 * The decision when some buckets had no room: the one whose window ends last is reported, since
 * retrying before then is refused again (the first of those, in the order given, on a tie).
 */
export function refusedDecision(refused: readonly RateLimitBucket[], now: Date): RateLimitDecision {
  let worst: RateLimitDecision | undefined;
  for (const bucket of refused) {
    const wait = retryAfterSeconds(now, windowStartOf(now, bucket.windowSeconds), bucket.windowSeconds);
    if (!worst || wait > worst.retryAfterSeconds) worst = { admitted: false, retryAfterSeconds: wait, refusedBy: bucket.kind };
  }
  if (!worst) throw new MemsvcError('INTERNAL', 'a refusal needs at least one refusing bucket');
  return worst;
}

// A counter is a 32-bit integer column; a window past this would also outrun any date.
const MAX_BUCKET_NUMBER = 2_147_483_647;

/** Checks a bucket before anything is counted in it; INVALID_INPUT names the field. */
export function checkRateLimitBucket(bucket: RateLimitBucket): RateLimitBucket {
  if (typeof bucket.key !== 'string' || bucket.key.length === 0) {
    throw new MemsvcError('INVALID_INPUT', 'key must be a non-empty string', { field: 'key' });
  }
  for (const field of ['limit', 'windowSeconds'] as const) {
    const value = bucket[field];
    if (!Number.isInteger(value) || value <= 0 || value > MAX_BUCKET_NUMBER) {
      throw new MemsvcError('INVALID_INPUT', `${field} must be a whole number from 1 to ${MAX_BUCKET_NUMBER}`, { field });
    }
  }
  return bucket;
}
