import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { OAuthProviderClient } from '@memsvc/auth';
import type { MemsvcConfig } from '@memsvc/config';
import { cookiesMustBeSecure, createDashboard, dashboardLoginFlow, type StdioServerCommand } from '@memsvc/dashboard';
import { httpServerOptions, type Logger, openRuntime } from '@memsvc/runtime';

export interface RunningDashboard {
  readonly url: string;
  close(): Promise<void>;
}

/** What a test may put in place of the real world: identity providers on loopback. */
export interface DashboardOverrides {
  readonly identityProviders?: readonly OAuthProviderClient[] | undefined;
}

/**
 * memsvc-server of this installation (a checkout's apps/server, or the `memsvc` package's), for
 * the Access page's stdio configurations; undefined where it cannot be found, and the page then
 * names the one on PATH.
 */
function installedServer(): StdioServerCommand | undefined {
  try {
    return { command: process.execPath, args: [fileURLToPath(import.meta.resolve('@memsvc/server/memsvc-server'))] };
  } catch {
    return undefined;
  }
}

/**
 * memsvc-dashboard: the runtime on the configured database (migrated like the server's; no
 * scheduled jobs, which the server or workers run) and the dashboard at the root of PORT/HOST.
 */
export async function startDashboard(config: MemsvcConfig, logger: Logger, overrides: DashboardOverrides = {}): Promise<RunningDashboard> {
  const runtime = await openRuntime(config, { applicationName: 'memsvc-dashboard', logger });
  const options = { basePath: '', secureCookies: cookiesMustBeSecure(config), stdioServer: installedServer() };
  const app = createDashboard({ runtime, loginFlow: dashboardLoginFlow(runtime, options.basePath, overrides.identityProviders) }, options);
  // The same request timeouts as memsvc-server (HTTP_SERVER_TIMEOUTS): 20 s for headers, 120 s for a request.
  const server = serve({
    fetch: app.fetch,
    port: config.http.port,
    hostname: config.http.host,
    serverOptions: httpServerOptions(),
  }) as Server;
  const url = await new Promise<string>((resolve, reject) => {
    server.once('listening', () => {
      const { address, port } = server.address() as AddressInfo;
      resolve(`http://${address.includes(':') ? `[${address}]` : address}:${port}`);
    });
    server.once('error', reject);
  }).catch(async (error: unknown) => {
    await runtime.close();
    throw error;
  });
  let closing: Promise<void> | undefined;
  return {
    url,
    close: () => {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await runtime.close();
      })();
      return closing;
    },
  };
}
