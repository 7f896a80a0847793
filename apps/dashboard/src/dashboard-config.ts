import { homedir } from 'node:os';
import { ConfigError, type LoadedConfig, loadConfig } from '@memsvc/config';

/**
 * The dashboard's configuration: the server's variables, with WEB_DATABASE_URL (when set) as the
 * database. Dev auth needs the user every visitor becomes; the configuration itself refuses it
 * under NODE_ENV=production.
 */
export function readDashboardConfig(env: NodeJS.ProcessEnv = process.env, homeDir: string = homedir()): LoadedConfig {
  const fromWebUrl = Boolean(env.WEB_DATABASE_URL?.trim());
  const database = fromWebUrl ? env.WEB_DATABASE_URL : env.DATABASE_URL;
  const loaded = withDatabaseVariableNamed(fromWebUrl ? 'WEB_DATABASE_URL' : 'DATABASE_URL', () =>
    loadConfig({ ...env, ...(database !== undefined ? { DATABASE_URL: database } : {}) }, { homeDir }),
  );
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

/** A problem with the database URL names the variable the operator set, not the one it was copied into. */
function withDatabaseVariableNamed(variable: string, load: () => LoadedConfig): LoadedConfig {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ConfigError) || variable === 'DATABASE_URL') throw error;
    const issues = error.issues.map((issue) => (issue.variable === 'DATABASE_URL' ? { ...issue, variable } : issue));
    throw new ConfigError(issues, error.profile);
  }
}
