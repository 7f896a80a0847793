import { isMemsvcError } from '@memsvc/core';
import { httpStatusOf, isCallerError, requestOriginGuard } from '@memsvc/runtime';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { csrf } from 'hono/csrf';
import { HTTPException } from 'hono/http-exception';
import { DASHBOARD_CSS } from './assets/dashboard-css.js';
import { DASHBOARD_JS } from './assets/dashboard-js.js';
import { scopesFor } from './auth/page-scopes.js';
import { registerSignInRoutes } from './auth/sign-in-routes.js';
import { isAdmin } from './auth/viewer.js';
import { viewerMiddleware } from './auth/viewer-middleware.js';
import type { DashboardDependencies, DashboardOptions } from './dashboard-dependencies.js';
import type { DashboardEnv } from './dashboard-env.js';
import { registerAccessRoutes } from './pages/access/access-routes.js';
import { registerErasureRoutes } from './pages/erasure/erasure-routes.js';
import { registerBulkRoutes } from './pages/memories/bulk-routes.js';
import { registerMemoriesRoutes } from './pages/memories/memories-routes.js';
import { registerMemoryRoutes } from './pages/memory/memory-routes.js';
import { registerOperationsRoutes } from './pages/operations/operations-routes.js';
import { registerReviewRoutes } from './pages/review/review-routes.js';
import { addressRateLimit } from './security/address-rate-limit.js';
import { csrfProtection } from './security/csrf.js';
import { securityHeaders } from './security/security-headers.js';
import { viewerRateLimit } from './security/viewer-rate-limit.js';
import { ErrorPage } from './views/error-page.js';

/**
 * The largest form the dashboard reads: a memory's 10,240 characters percent-encoded as 4-byte
 * UTF-8 are ~123 KB, with its tags and metadata well under this.
 */
const FORM_MAX_BYTES = 512 * 1024;

/**
 * The dashboard as a Hono app, to serve alone (`memsvc-dashboard`) or mounted under a path of
 * memsvc-server (`options.basePath`). Every response carries the security headers; every POST
 * passes the Origin check and the CSRF token; the ways in (sign-in posts, logins) count against
 * the client's address; every page but sign-in needs a viewer and counts
 * against the viewer's rate limit (when RATE_LIMIT_ENABLED); the
 * operations pages need the admin scope, and the others the scopes of what they do (page-scopes.ts).
 */
export function createDashboard(dependencies: DashboardDependencies, options: DashboardOptions): Hono<DashboardEnv> {
  const app = new Hono<DashboardEnv>();
  const { logger } = dependencies.runtime;
  const base = options.basePath;

  // Served alone, this is the dashboard's way in; mounted in memsvc-server, the server's guard ran
  // first and this one agrees with it (the same configuration).
  app.use('*', requestOriginGuard(dependencies.runtime.config, logger));
  app.use('*', securityHeaders());
  app.get('/assets/dashboard.css', (c) => c.body(DASHBOARD_CSS, 200, assetHeaders('text/css; charset=utf-8')));
  app.get('/assets/dashboard.js', (c) => c.body(DASHBOARD_JS, 200, assetHeaders('text/javascript; charset=utf-8')));
  // Before anything reads a form, and before sign-in: no request may make the server buffer more.
  app.use(
    '*',
    bodyLimit({
      maxSize: FORM_MAX_BYTES,
      onError: (c) =>
        c.html(<ErrorPage basePath={base} title="Too large" message="This form is larger than the dashboard accepts." />, 413),
    }),
  );
  // The ways in that need no session count against the client's address, before the form is
  // checked or read: a flood of key guesses or logins is refused at the door. The sign-in page
  // itself is not counted.
  const limitAddress = addressRateLimit(dependencies, options);
  app.post('/sign-in/*', limitAddress);
  app.use('/auth/*', limitAddress);
  app.use('*', csrf());
  app.use('*', csrfProtection(options));
  registerSignInRoutes(app, dependencies, options);

  app.use('*', viewerMiddleware(dependencies, options));
  app.use('*', viewerRateLimit(dependencies, options));
  app.use('*', async (c, next) => {
    // Pages hold memories: never kept by a shared cache, never stored by the browser.
    await next();
    c.header('Cache-Control', 'no-store');
  });
  app.use('*', async (c, next) => {
    const viewer = c.get('viewer');
    const missing = scopesFor(c.req.method, c.req.path.slice(base.length) || '/').filter((scope) => !viewer.scopes.has(scope));
    if (missing.length > 0) {
      const message = `This needs the ${missing.join(' and ')} scope${missing.length > 1 ? 's' : ''}, which your sign-in does not hold.`;
      return c.html(<ErrorPage basePath={base} title="Not allowed" message={message} />, 403);
    }
    await next();
  });
  app.use('/operations/*', async (c, next) => {
    if (!isAdmin(c.get('viewer'))) {
      return c.html(<ErrorPage basePath={base} title="Not allowed" message="The operations pages need the admin scope." />, 403);
    }
    await next();
  });
  app.get('/', (c) => c.redirect(`${base}/memories`, 303));
  registerMemoriesRoutes(app, dependencies, options);
  registerBulkRoutes(app, dependencies, options);
  registerMemoryRoutes(app, dependencies, options);
  registerErasureRoutes(app, dependencies, options);
  registerReviewRoutes(app, dependencies, options);
  registerOperationsRoutes(app, dependencies, options);
  registerAccessRoutes(app, dependencies, options);

  app.notFound((c) => c.html(<ErrorPage basePath={base} title="Not found" message="There is no such page." />, 404));
  app.onError((error, c) => {
    // hono/csrf refuses a cross-site post with a 403 HTTPException.
    if (error instanceof HTTPException && error.status === 403) {
      return c.html(<ErrorPage basePath={base} title="Refused" message="This form did not come from this dashboard." />, 403);
    }
    // The caller's errors are shown with their status (http-status-of-error.ts); the server's are logged.
    if (isMemsvcError(error) && isCallerError(error.code)) {
      const status = httpStatusOf(error.code);
      return c.html(<ErrorPage basePath={base} title={status === 404 ? 'Not found' : 'Refused'} message={error.message} />, status);
    }
    logger.error({ err: error, path: new URL(c.req.url).pathname }, 'dashboard page failed');
    return c.html(
      <ErrorPage basePath={base} title="Something went wrong" message="The page failed; the error is in the server's log." />,
      500,
    );
  });
  return app;
}

/**
 * Mounts the dashboard under `basePath` of a parent app (memsvc-server): its pages there, and
 * `<basePath>/`, which the mount alone does not match, sent to the memories too.
 */
export function mountDashboard(parent: Hono, dashboard: Hono<DashboardEnv>, basePath: string): void {
  parent.get(`${basePath}/`, (c) => c.redirect(`${basePath}/memories`, 303));
  parent.route(basePath, dashboard);
}

function assetHeaders(contentType: string): Record<string, string> {
  return { 'Content-Type': contentType, 'Cache-Control': 'public, max-age=3600' };
}
