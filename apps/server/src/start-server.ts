import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { OAuthProviderClient } from '@memsvc/auth';
import type { MemsvcConfig } from '@memsvc/config';
import type { Clock } from '@memsvc/core';
import { cookiesMustBeSecure, createDashboard, dashboardLoginFlow } from '@memsvc/dashboard';
import { createMcpServer } from '@memsvc/mcp-tools';
import { HealthChecker, httpServerOptions, type Logger, type MemsvcRuntime, openRuntime, rateLimitUnauthenticated } from '@memsvc/runtime';
import type { MemsvcStore } from '@memsvc/store-pg';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { credentialPrincipals } from './credential-principals.js';
import { createHttpApp } from './http-app.js';
import { loginFlowOf } from './login-flow-of.js';
import { oauthRoutesOf } from './oauth-server-of.js';
import { rateLimitRequest } from './rate-limit-hook.js';
import { SERVER_VERSION } from './server-version.js';
import { mcpToolDependencies } from './tool-dependencies.js';
import { TrafficMeter } from './traffic-meter.js';

export const SERVER_NAME = 'memsvc';
/** Where MEMSVC_SERVE_DASHBOARD mounts the dashboard. */
const DASHBOARD_PATH = '/dashboard';

/** How long shutdown waits for quiet (nothing in flight, nothing new) before it stops accepting. */
const SHUTDOWN_GRACE_MS = 10_000;
/** While requests are still in flight after that, how often shutdown says so and closes connections gone idle. */
const SHUTDOWN_WAIT_REPORT_MS = 5_000;
/**
 * After a shutdown signal the server keeps accepting requests — answering with
 * `Connection: close` and failing readiness — until it has been quiet this long (nothing in
 * flight, nothing new), so a request a client already sent is served rather than reset when the
 * listener and idle sockets close. PGlite works on the main thread, so under load a connection
 * can wait in the accept queue well past any fixed delay; quiet is the signal, not a timer.
 */
const SHUTDOWN_QUIET_MS = 100;
/** Loop turns that must bring no new connection or request before quiet counts (see TrafficMeter). */
const SHUTDOWN_QUIET_TURNS = 3;
/**
 * How long an idle keep-alive connection stays open (Node's default: 5 s). A client may send its
 * next request on an idle connection while PGlite holds this event loop (a long ingest or
 * import); when the loop comes back, Node's keep-alive timer runs before the request is read and
 * the connection is reset (reproduced: a 7 s block reset a client's call; the eval's clients saw
 * ECONNRESET on a loaded machine). 65 s is past any such block and past the 60 s idle timeout of
 * common load balancers, which must be the side that closes first. Clients learn it from the
 * `Keep-Alive: timeout=65` header; shutdown closes idle connections at once whatever it is.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface RunningServer {
  /** Base URL of the HTTP server, or undefined when it could not bind (stdio mode only). */
  readonly url: string | undefined;
  readonly store: MemsvcStore;
  /** Stops accepting, lets in-flight requests finish, closes MCP and the database. Idempotent. */
  close(): Promise<void>;
}

/**
 * Composes memsvc: opens (and migrates) the store, then serves HTTP (health, metrics and, over
 * streamable HTTP, MCP) and, over stdio, MCP on stdin/stdout.
 */
/** What a test may put in place of the real world: identity providers on loopback, a clock. */
export interface ServerOverrides {
  readonly identityProviders?: readonly OAuthProviderClient[] | undefined;
  /** The clock of every expiry (sessions, OAuth codes and requests): a test steps its own. */
  readonly clock?: Clock | undefined;
}

export async function startServer(config: MemsvcConfig, logger: Logger, overrides: ServerOverrides = {}): Promise<RunningServer> {
  let health: HealthChecker | undefined;
  let opened: MemsvcRuntime | undefined;
  const embeddings = () => opened?.embeddingReachability?.indicator();
  const runtime: MemsvcRuntime = await openRuntime(config, {
    applicationName: 'memsvc-server',
    logger,
    clock: overrides.clock,
    // One probe for /health and memsvc_pgvector_ready: concurrent checks share the one in flight.
    readPgvector: async (store) => {
      health ??= new HealthChecker(store, config.profile, embeddings);
      return (await health.check()).indicators.pgvector.status === 'up';
    },
  });
  opened = runtime;
  const { store, metrics } = runtime;
  health ??= new HealthChecker(store, config.profile, embeddings);
  // Not awaited: boot goes on while the provider is asked; an unreachable one is said in the log
  // at once (a refused connection answers in milliseconds) and shown on /health.
  void runtime.embeddingReachability?.start();
  const toolDependencies = mcpToolDependencies(runtime);
  const newMcpServer = () => createMcpServer({ name: SERVER_NAME, version: SERVER_VERSION }, toolDependencies);
  const overHttp = config.mcp.transport === 'streamable-http';
  let shuttingDown = false;
  const traffic = new TrafficMeter();
  const logins = loginFlowOf(runtime, overrides.identityProviders);
  const oauth = oauthRoutesOf(runtime, logger, cookiesMustBeSecure(config), logins);
  const app = createHttpApp({
    config,
    health,
    metrics,
    logger,
    traffic,
    tracer: runtime.tracer,
    isShuttingDown: () => shuttingDown,
    // The dashboard in this process: the way for an embedded database, which one process owns.
    dashboard: config.http.serveDashboard
      ? createDashboard(
          { runtime, loginFlow: dashboardLoginFlow(runtime, DASHBOARD_PATH, overrides.identityProviders) },
          { basePath: DASHBOARD_PATH, secureCookies: cookiesMustBeSecure(config) },
        )
      : undefined,
    auth: runtime.sessions && {
      apiKeys: runtime.apiKeys,
      sessions: runtime.sessions,
      logins,
      logger,
      clock: runtime.clock,
      secureCookies: cookiesMustBeSecure(config),
      challenge: oauth?.challenges.unauthorized(),
    },
    oauth,
    ...(config.rateLimit.enabled
      ? {
          limitUnauthenticated: rateLimitUnauthenticated({
            settings: config.rateLimit,
            store: store.rateLimits,
            clock: runtime.clock,
            onRefused: (kind) => metrics.rateLimited.inc({ kind }),
          }),
          limitRefusedBody: rateLimitRequest({
            settings: config.rateLimit,
            store: store.rateLimits,
            clock: runtime.clock,
            defaultUserId: config.auth.defaultUserId,
            onRefused: (kind) => metrics.rateLimited.inc({ kind }),
          }),
        }
      : {}),
    // Per-agent keys and sessions are the standard profile's (spec §5.5); lite knows only MEMSVC_API_KEY.
    ...(overHttp
      ? { createMcpServer: newMcpServer, findCredential: config.profile === 'standard' ? credentialPrincipals(runtime) : undefined }
      : {}),
  });

  // node-server returns an HTTP/1.1 server unless told to create HTTP/2.
  // Headers within 20 s, a whole request within 120 s (HTTP_SERVER_TIMEOUTS); Node's 300 s let a
  // client that trickles its bytes hold a connection for five minutes. On Node ≥ 20 the headers
  // timer runs only while a request is arriving, so it may be shorter than the keep-alive timeout
  // (tested: an idle keep-alive connection outlives both and serves its next request).
  const httpServer = serve({
    fetch: app.fetch,
    port: config.http.port,
    hostname: config.http.host,
    serverOptions: httpServerOptions(),
  }) as Server;
  httpServer.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  traffic.watch(httpServer);
  const url = await new Promise<string | undefined>((resolve, reject) => {
    httpServer.once('listening', () => {
      const { address, port } = httpServer.address() as AddressInfo;
      resolve(`http://${address.includes(':') ? `[${address}]` : address}:${port}`);
    });
    httpServer.once('error', (error: NodeJS.ErrnoException) => {
      // An agent host may spawn several stdio servers; a taken health port must not stop MCP.
      if (!overHttp) {
        logger.warn({ port: config.http.port, code: error.code }, 'health endpoints unavailable: the HTTP port could not be bound');
        resolve(undefined);
      } else reject(error);
    });
  }).catch(async (error: unknown) => {
    await runtime.close();
    throw error;
  });

  let stdioServer: ReturnType<typeof newMcpServer> | undefined;
  if (!overHttp) {
    stdioServer = newMcpServer();
    await stdioServer.connect(new StdioServerTransport());
  }

  // MEMSVC_SERVER_JOBS: on lite or an embedded database (one process, which no worker can
  // share) the server runs the scheduled jobs and reindex jobs itself; on standard over
  // PostgreSQL they belong to memsvc-worker processes (any number; each job runs once per tick),
  // unless it asks every server to run them too.
  if (config.serverJobs) runtime.startJobs({ unref: true });

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      shuttingDown = true;
      await traffic.whenQuiet({ quietMs: SHUTDOWN_QUIET_MS, turns: SHUTDOWN_QUIET_TURNS, deadline: performance.now() + SHUTDOWN_GRACE_MS });
      // No new connections; idle keep-alive ones close now, the others once their answer is sent
      // (it says Connection: close). A request still in flight is answered however long it takes:
      // cutting its connection would not stop its work, only hide the outcome (a long import went
      // on and committed after its client was cut). One that takes too long for the operator ends
      // with the process (SIGKILL), and the database rolls its transaction back.
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeIdleConnections();
        const waiting = setInterval(() => {
          httpServer.closeIdleConnections();
          if (traffic.inFlight > 0) logger.info({ inFlight: traffic.inFlight }, 'shutting down: waiting for requests in flight');
        }, SHUTDOWN_WAIT_REPORT_MS);
        httpServer.once('close', () => clearInterval(waiting));
      });
      await stdioServer?.close().catch(() => undefined);
      await runtime.close();
    })();
    return closing;
  };
  logger.info(
    {
      url,
      mcp: overHttp ? `${url}/mcp` : 'stdio',
      profile: config.profile,
      database: store.connection.description,
      jobs: config.serverJobs ? 'in this process' : 'memsvc-worker',
    },
    'memsvc listening',
  );
  return { url, store, close };
}
