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
  /**
   * How an MCP client starts this installation's memsvc-server over stdio (the Access page's
   * stdio configurations): the absolute Node.js and entry file, because a client launched from a
   * desktop app has no checkout's PATH. Absent, the page names `memsvc-server` and says it must be
   * installed (`npm i -g memsvc`).
   */
  readonly stdioServer?: StdioServerCommand | undefined;
}

/** A command line that starts memsvc-server: the program and its arguments. */
export interface StdioServerCommand {
  readonly command: string;
  readonly args: readonly string[];
}
