import { type RateLimitBucketKind, type RateLimitStore, rateLimitBuckets } from '@memsvc/access';
import type { MemsvcConfig } from '@memsvc/config';
import type { Clock } from '@memsvc/core';

/** What an address over RATE_LIMIT_IP_RPM is told, with the wait in its Retry-After header. */
export function addressLimitMessage(retryAfterSeconds: number): string {
  return `Too many requests from this address: retry after ${retryAfterSeconds} s (RATE_LIMIT_IP_RPM)`;
}

/** Whether an unauthenticated request may go on, or how long its address must wait. */
export type AddressVerdict = { readonly admitted: true } | { readonly admitted: false; readonly retryAfterSeconds: number };

/**
 * The per-address limit of spec §8 (RATE_LIMIT_IP_RPM) for requests that carry no valid
 * credential — an open server's callers, and failed authentication attempts, so guessing keys is
 * throttled too — and for the ways in that need no credential yet (minting a session, a login, the
 * dashboard's sign-in), which memsvc-server and memsvc-dashboard both serve. It runs before any
 * tool or form, so a refusal is HTTP 429 with Retry-After.
 */
export function rateLimitUnauthenticated(deps: {
  readonly settings: MemsvcConfig['rateLimit'];
  readonly store: RateLimitStore;
  readonly clock: Clock;
  readonly onRefused?: ((kind: RateLimitBucketKind) => void) | undefined;
}): (address: string | undefined) => Promise<AddressVerdict> {
  return async (address) => {
    if (!address) return { admitted: true };
    const buckets = rateLimitBuckets({ ip: address }, undefined, deps.settings);
    if (buckets.length === 0) return { admitted: true };
    const decision = await deps.store.take(buckets, deps.clock.now());
    if (decision.admitted) return { admitted: true };
    deps.onRefused?.('ip');
    return { admitted: false, retryAfterSeconds: decision.retryAfterSeconds };
  };
}
