import type { RateLimitBucket, RateLimitDecision } from '../domain/rate-limits.js';

/**
 * The shared fixed-window counters of the rate limiter (spec §8). They live in the database so
 * that every replica counts against the same budget; lapsed windows are bulk-deleted by the
 * auth-store sweep.
 */
export interface RateLimitStore {
  /**
   * Admits this call if every bucket is under its limit in its current window (the window `now`
   * falls in), counting it in all of them; otherwise counts it in none and says when to retry.
   * Concurrent calls, from any number of processes, never push a counter past its limit. No
   * buckets admits without a query. INVALID_INPUT naming the field (`key`, `limit`,
   * `windowSeconds`, `now`) for a bad bucket or instant, or the same key twice; nothing is counted then.
   */
  take(buckets: readonly RateLimitBucket[], now: Date): Promise<RateLimitDecision>;
}
