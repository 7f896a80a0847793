import { homedir } from 'node:os';
import { ConfigError, type LoadedConfig, loadConfig } from '@memsvc/core';

/** Reads and validates the environment once, as every memsvc app does. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  return loadConfig(env, { homeDir: homedir() });
}

export { ConfigError };
