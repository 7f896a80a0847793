import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { OAuthProviderClient } from '@memsvc/auth';
import type { MemsvcConfig } from '@memsvc/config';
import type { Clock } from '@memsvc/core';
import { cookiesMustBeSecure, createDashboard, dashboardLoginFlow, type StdioServerCommand } from '@memsvc/dashboard';
import { createMcpServer } from '@memsvc/mcp-tools';
import {
  HealthChecker,
  httpServerOptions,
  type Logger,
  type MemsvcRuntime,
  openRuntime,
  type RunningJobs,
  rateLimitUnauthenticated,
  ShutdownBudget,
} from '@memsvc/runtime';
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

/**
 * Marks of the shutdown budget (MEMSVC_SHUTDOWN_TIMEOUT_MS, 10 s by default), as fractions: quiet
 * is waited for until 50 % (then the listener closes: a connection still in its accept queue is
 * reset, so it stays open while a loaded PGlite works through a burst), requests in flight are
 * answered until 60 % (then their connections are cut), the jobs and the database have until 90 %
 * with the span flush inside it, and the process exits at 100 % whatever is left (memsvc-server.ts).
 */
const QUIET_BY = 0.5;
const REQUESTS_BY = 0.6;
const RUNTIME_BY = 0.9;
/** While requests are still in flight, how often shutdown says so and closes connections gone idle. */
const SHUTDOWN_WAIT_REPORT_MS = 1_000;
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
  /**
   * Starts no job from the call on, stops accepting, lets in-flight requests finish, closes MCP
   * and the database, all within MEMSVC_SHUTDOWN_TIMEOUT_MS: what is still running at its marks is
   * cut (a request's transaction rolls back; a job's lock is released or its lease expires, so the
   * next run retries it). Idempotent.
   */
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
  /** How a client starts this installation over stdio, for the dashboard's Access page (the program knows its own path). */
  readonly stdioServer?: StdioServerCommand | undefined;
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
    // The dashboard in this process: one process for agents and people (memsvc-dashboard runs it alone).
    dashboard: config.http.serveDashboard
      ? createDashboard(
          { runtime, loginFlow: dashboardLoginFlow(runtime, DASHBOARD_PATH, overrides.identityProviders) },
          { basePath: DASHBOARD_PATH, secureCookies: cookiesMustBeSecure(config), stdioServer: overrides.stdioServer },
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
  const jobs: RunningJobs | undefined = config.serverJobs ? runtime.startJobs({ unref: true }) : undefined;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const budget = new ShutdownBudget(config.shutdownTimeoutMs);
      shuttingDown = true;
      // The scheduler first: from here no job starts (one due right now included); runs in
      // progress go on while the requests drain.
      const jobsStopped = jobs?.stop() ?? Promise.resolve();
      await traffic.whenQuiet({
        quietMs: SHUTDOWN_QUIET_MS,
        turns: SHUTDOWN_QUIET_TURNS,
        deadline: performance.now() + budget.msUntil(QUIET_BY),
      });
      // No new connections; idle keep-alive ones and ones that never sent a byte close now, the
      // others once their answer is sent (it says Connection: close). A request in flight is
      // answered until REQUESTS_BY: cutting it sooner would not stop its work, only hide the
      // outcome. Past that it is cut and ends with the process: its transaction rolls back, and
      // its client, which got no answer, may retry.
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      const sweep = () => {
        httpServer.closeIdleConnections();
        // Only while quiet: with requests in flight PGlite may hold the loop, and a connection it
        // has not read yet looks silent though its client has sent the request.
        if (traffic.isQuiet(SHUTDOWN_QUIET_MS)) traffic.closeUnstarted();
      };
      sweep();
      const waiting = setInterval(() => {
        sweep();
        if (traffic.inFlight > 0) logger.info({ inFlight: traffic.inFlight }, 'shutting down: waiting for requests in flight');
      }, SHUTDOWN_WAIT_REPORT_MS);
      if (!(await budget.settlesBy(closed, REQUESTS_BY))) {
        logger.warn(
          { inFlight: traffic.inFlight, timeoutMs: config.shutdownTimeoutMs },
          'shutting down: requests still in flight are cut (MEMSVC_SHUTDOWN_TIMEOUT_MS); their writes roll back and their clients may retry',
        );
        traffic.closeUnstarted({ all: true });
        httpServer.closeAllConnections();
      }
      clearInterval(waiting);
      if (!(await budget.settlesBy(jobsStopped, REQUESTS_BY))) {
        logger.warn('shutting down: a job still running is left to end with the process; its next run retries it');
      }
      if (stdioServer) await budget.settlesBy(stdioServer.close(), REQUESTS_BY);
      await runtime.close({ timeoutMs: budget.msUntil(RUNTIME_BY) });
    })();
    return closing;
  };
  logger.info(
    {
      url,
      mcp: overHttp ? `${url}/mcp` : 'stdio',
      ...(config.http.serveDashboard ? { dashboard: `${url}${DASHBOARD_PATH}` } : {}),
      profile: config.profile,
      database: store.connection.description,
      jobs: config.serverJobs ? 'in this process' : 'memsvc-worker',
    },
    'memsvc listening',
  );
  return { url, store, close };
}
