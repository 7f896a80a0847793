import { createHash } from 'node:crypto';
import {
  ADMITTED,
  checkRateLimitBucket,
  type RateLimitBucket,
  type RateLimitDecision,
  type RateLimitStore,
  refusedDecision,
  windowStartOf,
} from '@memsvc/access';
import { MemsvcError } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/** The dependencies of PgRateLimitStore. */
export interface PgRateLimitStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
}

// A key is kept as written when it is short, printable ASCII (what core builds for ordinary ids
// and addresses); anything else — an address header of any length, a NUL that text cannot hold —
// is stored as its SHA-256, so every key fits the column and an index entry.
const PLAIN_KEY = /^[\x21-\x7e]{1,300}$/;

/** One counter row to take, with the key as stored. */
interface Take {
  readonly bucket: RateLimitBucket;
  readonly key: string;
  readonly windowStart: Date;
  readonly windowEnd: Date;
}

/**
 * Fixed-window counters in `rate_limit_counters`, shared by every replica (spec §8). An admitted
 * call costs one statement: an upsert of all its buckets that only increments a counter below its
 * limit. The row lock ON CONFLICT DO UPDATE takes, and its WHERE evaluated on the locked row,
 * mean concurrent callers on any number of connections never push a counter past its limit.
 */
export class PgRateLimitStore implements RateLimitStore {
  readonly #db: Kysely<MemsvcDatabase>;

  constructor(options: PgRateLimitStoreOptions) {
    this.#db = options.db;
  }

  async take(buckets: readonly RateLimitBucket[], now: Date): Promise<RateLimitDecision> {
    if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
      throw new MemsvcError('INVALID_INPUT', 'now must be a valid time', { field: 'now' });
    }
    const takes = takesOf(buckets, now);
    if (takes.length === 0) return ADMITTED;
    const keys = takes.map((take) => take.key);
    // A fresh row starts at 1, which any limit (≥ 1) admits; an existing one is incremented only
    // while below its limit, so a counter ends at most at `limit`: exactly `limit` calls a window.
    // Rows are written in one fixed order (the keys are ASCII, so "C" order is code-unit order)
    // so that two calls sharing buckets lock them in the same order and cannot deadlock.
    const counted = await sql<{ bucket: string }>`
      INSERT INTO rate_limit_counters AS c (bucket, window_start, count, expires_at)
      SELECT b.bucket, b.window_start, 1, b.expires_at
        FROM unnest(${keys}::text[], ${takes.map((take) => take.windowStart.toISOString())}::timestamptz[],
                    ${takes.map((take) => take.windowEnd.toISOString())}::timestamptz[]) AS b (bucket, window_start, expires_at)
       ORDER BY b.bucket COLLATE "C"
      ON CONFLICT (bucket, window_start) DO UPDATE SET count = c.count + 1
       WHERE c.count < (${takes.map((take) => take.bucket.limit)}::int[])[array_position(${keys}::text[], excluded.bucket)]
      RETURNING c.bucket`.execute(this.#db);
    if (counted.rows.length === takes.length) return ADMITTED;

    const countedKeys = new Set(counted.rows.map((row) => row.bucket));
    const undo = takes.filter((take) => countedKeys.has(take.key));
    if (undo.length > 0) await this.#uncount(undo);
    return refusedDecision(
      takes.filter((take) => !countedKeys.has(take.key)).map((take) => take.bucket),
      now,
    );
  }

  /**
   * Takes back the increments of a refused call, so that it counts nowhere. Until this lands, a
   * concurrent call may see those counters one higher and be refused too: the limiter can err
   * towards refusing for a moment, never towards admitting past a limit. Locks in the same order
   * as take, for the same reason.
   */
  async #uncount(takes: readonly Take[]): Promise<void> {
    await sql`
      UPDATE rate_limit_counters AS c SET count = c.count - 1
        FROM (SELECT r.bucket, r.window_start FROM rate_limit_counters AS r
               WHERE (r.bucket, r.window_start) IN (
                       SELECT * FROM unnest(${takes.map((take) => take.key)}::text[],
                                            ${takes.map((take) => take.windowStart.toISOString())}::timestamptz[]))
               ORDER BY r.bucket COLLATE "C"
                 FOR UPDATE) AS locked
       WHERE c.bucket = locked.bucket AND c.window_start = locked.window_start AND c.count > 0`.execute(this.#db);
  }
}

/** The rows a call takes, checked and in key order; INVALID_INPUT before anything is written. */
function takesOf(buckets: readonly RateLimitBucket[], now: Date): Take[] {
  const takes = buckets.map((bucket): Take => {
    checkRateLimitBucket(bucket);
    const windowStart = windowStartOf(now, bucket.windowSeconds);
    return { bucket, key: storedKey(bucket.key), windowStart, windowEnd: new Date(windowStart.getTime() + bucket.windowSeconds * 1000) };
  });
  takes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  // One statement cannot upsert the same row twice, and two limits on one key would be a bug.
  for (let i = 1; i < takes.length; i++) {
    if (takes[i]?.key === takes[i - 1]?.key) {
      throw new MemsvcError('INVALID_INPUT', 'key must not repeat within one call', { field: 'key' });
    }
  }
  return takes;
}

/** The key as stored: as written when short printable ASCII, otherwise `sha256:` and its hex digest. */
function storedKey(key: string): string {
  return PLAIN_KEY.test(key) ? key : `sha256:${createHash('sha256').update(key, 'utf8').digest('hex')}`;
}
