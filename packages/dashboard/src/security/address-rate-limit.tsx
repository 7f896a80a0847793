import { addressLimitMessage, ClientAddresses, httpStatusOf, rateLimitUnauthenticated } from '@memsvc/runtime';
import type { MiddlewareHandler } from 'hono';
import type { DashboardDependencies, DashboardOptions } from '../dashboard-dependencies.js';
import type { DashboardEnv } from '../dashboard-env.js';
import { ErrorPage } from '../views/error-page.js';

/**
 * The per-address limit of spec §8 (RATE_LIMIT_IP_RPM) on the dashboard's ways in, which need no
 * session yet: an API key posted to sign in, a GitHub or Google login started or finished. Each
 * checks a secret or writes a row, so an address that floods them is answered 429 with
 * Retry-After before any of that runs — by the dashboard itself, so served alone
 * (`memsvc-dashboard`) it is as guarded as under memsvc-server, whose `/auth/*` counts against
 * the same buckets. The client is the socket's peer, or behind MEMSVC_TRUSTED_PROXIES the nearest
 * untrusted hop of X-Forwarded-For. Without RATE_LIMIT_ENABLED it costs nothing.
 */
export function addressRateLimit(dependencies: DashboardDependencies, options: DashboardOptions): MiddlewareHandler<DashboardEnv> {
  const { config, store, clock, metrics } = dependencies.runtime;
  if (!config.rateLimit.enabled) return (_c, next) => next();
  const addresses = new ClientAddresses(config.http.trustedProxies);
  const limit = rateLimitUnauthenticated({
    settings: config.rateLimit,
    store: store.rateLimits,
    clock,
    onRefused: (kind) => metrics.rateLimited.inc({ kind }),
  });
  return async (c, next) => {
    const verdict = await limit(addresses.ofRequest(c));
    if (verdict.admitted) return next();
    c.header('Retry-After', String(verdict.retryAfterSeconds));
    return c.html(
      <ErrorPage basePath={options.basePath} title="Too many requests" message={addressLimitMessage(verdict.retryAfterSeconds)} />,
      httpStatusOf('RATE_LIMITED'),
    );
  };
}
