import type { LoginFlow } from '@memsvc/auth';
import type { MemsvcRuntime } from '@memsvc/runtime';

/**
 * What the dashboard runs on: the same runtime as the server (engine, access, maintenance, store,
 * sessions), so every change a person makes goes through the engine and is versioned and
 * audited like an agent's. `loginFlow` is GitHub/Google sign-in when configured.
 */
export interface DashboardDependencies {
  readonly runtime: Pick<
    MemsvcRuntime,
    'config' | 'engine' | 'access' | 'maintenance' | 'store' | 'clock' | 'sessions' | 'logger' | 'apiKeys' | 'metrics'
  >;
  readonly loginFlow?: LoginFlow | undefined;
}

/** How the dashboard is mounted and what its cookies look like. */
export interface DashboardOptions {
  /** Where the pages live: '' for the standalone process, '/dashboard' inside memsvc-server. */
  readonly basePath: string;
  /** Cookies marked Secure (everywhere but NODE_ENV=development, where pages are served over plain HTTP). */
  readonly secureCookies: boolean;
}
