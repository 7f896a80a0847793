export type { ConfigIssue } from './config-error.js';
export { ConfigError } from './config-error.js';
export type {
  DeploymentProfile,
  LogLevel,
  McpTransport,
  MemsvcConfig,
  NodeEnv,
  OAuthClient,
  ReadDatabaseConfig,
} from './config-types.js';
export { JWT_SECRET_MIN_LENGTH } from './cross-variable-rules.js';
export { LITE_DEFAULT_USER_ID } from './default-user.js';
export { parseDurationSeconds } from './duration.js';
export type { EnvVariable } from './env-schema.js';
export { ENV_VARIABLES, envSchema } from './env-schema.js';
export type { ConfigContext, LoadedConfig } from './load-config.js';
export { loadConfig } from './load-config.js';
export type { ProfileResolution } from './profile.js';
export { resolveProfile } from './profile.js';
export { assertServerMayBoot } from './server-boot-rules.js';
export type { ToolName } from './tool-names.js';
export { TOOL_GROUPS, TOOL_NAMES } from './tool-names.js';
export type { ToolSetName } from './tool-sets.js';
export {
  ALL_TOOL_SETS,
  CALLABLE_BY_DEFAULT,
  DEFAULT_TOOL_SETS,
  isToolSetName,
  TOOL_SET_NAMES,
  TOOL_SETS,
  toolsOfSets,
} from './tool-sets.js';
