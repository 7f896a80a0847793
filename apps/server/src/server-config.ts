import { homedir } from 'node:os';
import { assertServerMayBoot, type LoadedConfig, loadConfig } from '@memsvc/core';

/**
 * The server's boot-time configuration: every rule of spec §7, including the standard-profile
 * streamable-HTTP gate, checked before anything listens or connects.
 */
export function readServerConfig(env: NodeJS.ProcessEnv = process.env, homeDir: string = homedir()): LoadedConfig {
  const loaded = loadConfig(env, { homeDir });
  assertServerMayBoot(loaded.config);
  return loaded;
}
