import { homedir } from 'node:os';
import { ConfigError, type LoadedConfig, loadConfig } from '@memsvc/core';

/**
 * The dashboard's configuration: the server's variables, with WEB_DATABASE_URL (when set) as the
 * database. Dev auth needs the user every visitor becomes; the configuration itself refuses it
 * under NODE_ENV=production.
 */
export function readDashboardConfig(env: NodeJS.ProcessEnv = process.env, homeDir: string = homedir()): LoadedConfig {
  const database = env.WEB_DATABASE_URL?.trim() ? env.WEB_DATABASE_URL : env.DATABASE_URL;
  const loaded = loadConfig({ ...env, ...(database !== undefined ? { DATABASE_URL: database } : {}) }, { homeDir });
  if (loaded.config.auth.dashboard.devAuth && loaded.config.auth.defaultUserId === undefined) {
    throw new ConfigError(
      [
        {
          variable: 'MEMSVC_DEFAULT_USER_ID',
          message: 'is required with MEMSVC_DASHBOARD_DEV_AUTH: every visitor is signed in as that user',
        },
      ],
      loaded.config.profile,
    );
  }
  return loaded;
}
