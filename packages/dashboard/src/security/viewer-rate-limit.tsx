import { rateLimitBuckets } from '@memsvc/access';
import { httpStatusOf } from '@memsvc/runtime';
import type { MiddlewareHandler } from 'hono';
import type { DashboardDependencies, DashboardOptions } from '../dashboard-dependencies.js';
import type { DashboardEnv } from '../dashboard-env.js';
import { ErrorPage } from '../views/error-page.js';

/** A job row's progress poll: a read by id every few seconds while a job runs, not counted. */
const UNCOUNTED = /\/operations\/reindex\/[0-9a-fA-F-]{36}\.json$/;

/**
 * The rate limiter of spec §8 for a signed-in person: each page and form counts against the same
 * buckets as the person's MCP calls (their user and organization; no tool's override applies),
 * shared by every replica. A request over a limit is answered 429 with
 * Retry-After and runs nothing. Without RATE_LIMIT_ENABLED it costs nothing.
 */
export function viewerRateLimit(dependencies: DashboardDependencies, options: DashboardOptions): MiddlewareHandler<DashboardEnv> {
  const { config, store, clock, metrics } = dependencies.runtime;
  return async (c, next) => {
    if (!config.rateLimit.enabled || UNCOUNTED.test(c.req.path)) return next();
    const viewer = c.get('viewer');
    const caller = { userId: viewer.tenant, ...(viewer.organizationId ? { organizationId: viewer.organizationId } : {}) };
    const buckets = rateLimitBuckets(caller, undefined, config.rateLimit);
    if (buckets.length === 0) return next();
    const decision = await store.rateLimits.take(buckets, clock.now());
    if (decision.admitted) return next();
    metrics.rateLimited.inc({ kind: decision.refusedBy ?? 'user' });
    c.header('Retry-After', String(decision.retryAfterSeconds));
    const message = `You have made more requests than this server allows in its window; try again in ${decision.retryAfterSeconds} s.`;
    return c.html(<ErrorPage basePath={options.basePath} title="Too many requests" message={message} />, httpStatusOf('RATE_LIMITED'));
  };
}
