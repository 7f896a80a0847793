import { homedir } from 'node:os';
import { ConfigError, type LoadedConfig, loadConfig } from '@memsvc/config';

/** Reads and validates the environment once, as every memsvc app does; `~` is the environment's HOME. */
export function readConfig(env: NodeJS.ProcessEnv): LoadedConfig {
  return loadConfig(env, { homeDir: env.HOME || homedir() });
}

export { ConfigError };
