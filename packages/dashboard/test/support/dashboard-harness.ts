import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { OAuthProviderClient } from '@memsvc/auth';
import { loadConfig } from '@memsvc/config';
import { createLogger, type MemsvcRuntime, openRuntime } from '@memsvc/runtime';
import { Hono } from 'hono';
import { createDashboard, dashboardLoginFlow, mountDashboard } from '../../src/index.js';

export const ADMIN_TOKEN = 'an-admin-token-for-tests-0123456789';
export const JWT_SECRET = 'a-jwt-secret-for-dashboard-tests-0123456789';

/** A running dashboard for a test file: its URL, the runtime under it (to seed and inspect), and the app for in-process requests. */
export interface TestDashboard {
  readonly url: string;
  readonly runtime: MemsvcRuntime;
  readonly app: ReturnType<typeof createDashboard>;
  close(): Promise<void>;
}

export interface TestDashboardOptions {
  readonly env?: Readonly<Record<string, string>>;
  readonly basePath?: string;
  readonly identityProviders?: readonly OAuthProviderClient[];
}

/**
 * The dashboard on `database`, listening on a free loopback port. Dev auth as `dev` unless the
 * env says otherwise; the local embedder, so searches rank like the server's.
 */
export async function startTestDashboard(database: string, options: TestDashboardOptions = {}): Promise<TestDashboard> {
  const env = {
    DATABASE_URL: database,
    EMBEDDING_PROVIDER: 'local',
    MEMSVC_DASHBOARD_DEV_AUTH: 'true',
    MEMSVC_DEFAULT_USER_ID: 'dev',
    MCP_ADMIN_TOKEN: ADMIN_TOKEN,
    LOG_LEVEL: 'error',
    ...options.env,
  };
  const { config } = loadConfig(env, { homeDir: process.cwd() });
  const runtime = await openRuntime(config, { applicationName: 'memsvc-dashboard-test', logger: createLogger('error') });
  const basePath = options.basePath ?? '';
  const dashboardOptions = { basePath, secureCookies: config.nodeEnv !== 'development' };
  const loginFlow = dashboardLoginFlow(runtime, basePath, options.identityProviders);
  const app = createDashboard({ runtime, loginFlow }, dashboardOptions);
  // Mounted as memsvc-server mounts it: under its base path in a parent app.
  let fetch = app.fetch;
  if (basePath) {
    const parent = new Hono();
    mountDashboard(parent, app, basePath);
    fetch = parent.fetch;
  }
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  const port = await new Promise<number>((resolve) => server.once('listening', () => resolve((server.address() as AddressInfo).port)));
  return {
    url: `http://localhost:${port}${basePath}`,
    runtime,
    app,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await runtime.close();
    },
  };
}

/** The rate limiter's window in the limit tests: long, so no test sees it roll over. */
export const RATE_LIMIT_WINDOW_SEC = 3600;

/**
 * The dashboard with key sign-in (standard profile) and RATE_LIMIT_ENABLED, plus `env`'s limits.
 * Windows are aligned to the epoch: it starts well inside one, so no counter rolls over mid-test.
 */
export async function startRateLimitedDashboard(database: string, env: Readonly<Record<string, string>>): Promise<TestDashboard> {
  const intoWindow = (Date.now() / 1000) % RATE_LIMIT_WINDOW_SEC;
  if (RATE_LIMIT_WINDOW_SEC - intoWindow < 60) {
    await new Promise((resolve) => setTimeout(resolve, (RATE_LIMIT_WINDOW_SEC - intoWindow + 1) * 1000));
  }
  return startTestDashboard(database, {
    env: {
      MEMSVC_DASHBOARD_DEV_AUTH: 'false',
      DEPLOYMENT_PROFILE: 'standard',
      JWT_SECRET,
      RATE_LIMIT_ENABLED: 'true',
      RATE_LIMIT_WINDOW_SEC: String(RATE_LIMIT_WINDOW_SEC),
      ...env,
    },
  });
}

/** The engines a file runs on: PGlite always, PostgreSQL when the test run has one. */
export {
  type DatabaseEngine as DashboardEngine,
  databaseEngines as dashboardEngines,
} from '../../../../tooling/vitest/engine-databases.ts';
