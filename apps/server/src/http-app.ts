import { bearerToken, secretMatches } from '@memsvc/auth';
import type { MemsvcConfig } from '@memsvc/config';
import type { Tracer } from '@memsvc/core';
import { type createDashboard, mountDashboard } from '@memsvc/dashboard';
import type { Principal } from '@memsvc/mcp-tools';
import {
  type AddressVerdict,
  ClientAddresses,
  type HealthChecker,
  httpStatusOf,
  type Logger,
  type Metrics,
  requestOriginGuard,
} from '@memsvc/runtime';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import { type AuthRouteDependencies, registerAuthRoutes } from './auth-routes.js';
import type { BearerChallenges } from './bearer-challenge.js';
import type { CredentialLookup } from './credential-principals.js';
import { entryPointLimit } from './entry-point-limit.js';
import { httpRequestSpans } from './http-request-spans.js';
import { createMcpHttpHandler } from './mcp-http-route.js';
import { type OAuthRouteDependencies, registerOAuthRoutes } from './oauth-routes.js';
import type { CallerVerdict } from './rate-limit-hook.js';
import { TrafficMeter } from './traffic-meter.js';

export interface HttpAppDependencies {
  readonly config: MemsvcConfig;
  readonly health: HealthChecker;
  readonly metrics: Metrics;
  readonly logger: Logger;
  /** Present when MCP_TRANSPORT=streamable-http. */
  readonly createMcpServer?: () => McpServer;
  /** Per-agent API keys and session JWTs, checked on /mcp when AUTH_REQUIRED=true. */
  readonly findCredential?: CredentialLookup;
  /** The per-address limit of requests without a valid credential (when rate limiting is on). */
  readonly limitUnauthenticated?: ((address: string | undefined) => Promise<AddressVerdict>) | undefined;
  /** The user's limit, for an authenticated /mcp request whose body is refused (when rate limiting is on). */
  readonly limitRefusedBody?: ((principal: Principal) => Promise<CallerVerdict>) | undefined;
  /** The session and login endpoints (/auth/…): on the standard profile with a JWT_SECRET. */
  readonly auth?: AuthRouteDependencies | undefined;
  /** True once shutdown has begun: readiness fails and connections are not kept alive. */
  readonly isShuttingDown?: () => boolean;
  /** Told when each request starts and ends, so shutdown can wait for quiet. */
  readonly traffic?: TrafficMeter;
  /** A span per request, around everything else; without tracing no middleware is added. */
  readonly tracer?: Tracer;
  /** memsvc's OAuth authorization server for MCP clients: with a JWT_SECRET and OAUTH_REDIRECT_BASE_URL. */
  readonly oauth?: (OAuthRouteDependencies & { readonly challenges: BearerChallenges }) | undefined;
  /** The dashboard, mounted under /dashboard (MEMSVC_SERVE_DASHBOARD). */
  readonly dashboard?: ReturnType<typeof createDashboard> | undefined;
}

/**
 * The HTTP surface of spec §4.1: `/health`, `/health/ready`, `/health/metrics`, `/mcp` when
 * MCP runs over streamable HTTP, and the session and login endpoints under `/auth`. Routes are thin: they call the health checker, the metrics
 * registry or the MCP transport, and map the outcome.
 */
export function createHttpApp(deps: HttpAppDependencies): Hono {
  const app = new Hono();
  const { config, logger } = deps;
  const shuttingDown = deps.isShuttingDown ?? (() => false);

  if (deps.tracer?.enabled) app.use('*', httpRequestSpans(deps.tracer));

  // While draining, every response asks the client to open a new connection (to another
  // replica) next time, so no request is sent on a socket that is about to close.
  const traffic = deps.traffic ?? new TrafficMeter();
  app.use('*', async (c, next) => {
    traffic.requestStarted();
    try {
      await next();
      if (shuttingDown()) c.header('Connection', 'close');
    } finally {
      traffic.requestEnded();
    }
  });

  // Before CORS and every route: a page on a name that is not this server's (DNS rebinding) or an
  // origin it was not told to trust gets nothing, not even a preflight answer.
  app.use('*', requestOriginGuard(config, logger));

  if (deps.oauth) {
    // The OAuth metadata, registration and token endpoints answer pages of any origin, which the
    // origin guard lets through for them alone: browser-based MCP clients discover, register and
    // redeem codes across origins, and nothing ambient (no cookie) rides on these requests.
    const anyPage = cors({
      origin: '*',
      allowHeaders: ['Content-Type', 'Authorization', 'Mcp-Protocol-Version'],
      allowMethods: ['GET', 'POST', 'OPTIONS'],
    });
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/*',
      '/.well-known/oauth-authorization-server',
      '/oauth/register',
      '/oauth/token',
    ]) {
      app.use(path, anyPage);
    }
  }

  if (config.http.corsAllowedOrigins.length > 0) {
    const origins = config.http.corsAllowedOrigins;
    app.use(
      '*',
      cors({
        origin: origins.includes('*') ? '*' : [...origins],
        allowHeaders: ['Content-Type', 'Authorization', 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'Last-Event-ID'],
        exposeHeaders: ['Mcp-Session-Id'],
        allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
      }),
    );
  }

  const healthRoute = async (c: Context) => {
    const report = await deps.health.check();
    if (report.status !== 'ok') logger.warn({ health: report.indicators }, 'health check failed');
    // Health's 503 is the probe protocol's "not ready" (load balancers read it), not an error code's.
    return c.json(report, report.status === 'ok' ? 200 : 503, { 'Cache-Control': 'no-store' });
  };
  app.get('/health', healthRoute);
  app.get('/health/ready', async (c) => {
    if (shuttingDown()) {
      // Not ready whatever the indicators say; they are still reported (the spec's one shape),
      // unless the store is already closing under the check.
      const report = await deps.health.check().catch(() => undefined);
      return c.json({ ...report, status: 'error', reason: 'shutting down' }, 503, { 'Cache-Control': 'no-store' });
    }
    return healthRoute(c);
  });

  app.get('/health/metrics', async (c) => {
    if (config.metrics.token) {
      const token = bearerToken(c.req.header('authorization'));
      if (!secretMatches(config.metrics.token, token)) {
        const refusal = { code: 'UNAUTHENTICATED', message: 'a valid bearer token is required for metrics' } as const;
        return c.json({ error: refusal }, httpStatusOf(refusal.code), {
          'WWW-Authenticate': 'Bearer',
        });
      }
    }
    return c.text(await deps.metrics.registry.metrics(), 200, { 'Content-Type': deps.metrics.registry.contentType });
  });

  const clientAddresses = new ClientAddresses(config.http.trustedProxies);
  if (deps.limitUnauthenticated) {
    const limit = deps.limitUnauthenticated;
    // The dashboard limits its own ways in (sign-in posts, logins) by address, served here or alone.
    app.use('/auth/*', entryPointLimit(limit, clientAddresses));
    app.use('/oauth/*', entryPointLimit(limit, clientAddresses));
  }
  if (deps.auth) registerAuthRoutes(app, deps.auth);
  if (deps.oauth) registerOAuthRoutes(app, deps.oauth);
  if (deps.dashboard) mountDashboard(app, deps.dashboard, '/dashboard');

  if (deps.createMcpServer) {
    // The body limit (MCP_MAX_BODY_BYTES) is enforced by the handler, which reads the body itself.
    app.all(
      '/mcp',
      createMcpHttpHandler({
        config,
        createServer: deps.createMcpServer,
        metrics: deps.metrics,
        logger,
        findCredential: deps.findCredential,
        clientAddresses,
        limitUnauthenticated: deps.limitUnauthenticated,
        limitRefusedBody: deps.limitRefusedBody,
        challenges: deps.oauth?.challenges,
      }),
    );
  }

  // Someone who opens the server's address in a browser or with curl: where to go from here.
  app.get('/', (c) =>
    deps.dashboard
      ? c.redirect('/dashboard', 302)
      : c.json({
          name: 'memsvc',
          mcp: deps.createMcpServer ? '/mcp' : null,
          health: '/health',
          dashboard: 'not served here: MEMSVC_SERVE_DASHBOARD=true serves it at /dashboard, or run memsvc-dashboard',
        }),
  );

  app.notFound((c) =>
    c.json({ error: { code: 'NOT_FOUND', message: `no route for ${c.req.method} ${c.req.path}` } }, httpStatusOf('NOT_FOUND')),
  );
  app.onError((error, c) => {
    logger.error({ err: error, path: c.req.path }, 'unhandled error in an HTTP route');
    return c.json(
      { error: { code: 'INTERNAL', message: 'an internal error occurred; the server log has the details' } },
      httpStatusOf('INTERNAL'),
    );
  });
  return app;
}
