import { homedir } from 'node:os';
import { assertServerMayBoot, type LoadedConfig, loadConfig } from '@memsvc/config';

/**
 * The server's boot-time configuration: every rule of spec §7, including the standard-profile
 * streamable-HTTP gate, checked before anything listens or connects.
 */
export function readServerConfig(env: NodeJS.ProcessEnv = process.env, homeDir: string = homedir()): LoadedConfig {
  const loaded = loadConfig(env, { homeDir });
  assertServerMayBoot(loaded.config);
  const { config } = loaded;
  if (!config.serverJobs && config.database.target.engine === 'pglite') {
    return {
      ...loaded,
      warnings: [
        ...loaded.warnings,
        'MEMSVC_SERVER_JOBS=false on an embedded database: background jobs run only in the process hosting it, so none will run while this one does (no background job, no reindex job)',
      ],
    };
  }
  return loaded;
}
