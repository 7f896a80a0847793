import { ConfigError, type ConfigIssue } from './config-error.js';
import type { MemsvcConfig } from './config-types.js';

/**
 * The rules a server checks before it listens. Spec §5.4 and §7: a multi-tenant (`standard`)
 * server on streamable HTTP refuses to start unless callers must authenticate or the operator
 * explicitly accepts an open server. The `lite` profile is single-user, and stdio is reachable
 * only by the process that spawned it.
 *
 * Ours, where the spec is silent: a `lite` server on streamable HTTP with AUTH_REQUIRED=true
 * accepts one credential, MEMSVC_API_KEY, acting as the default user (MEMSVC_DEFAULT_USER_ID, or
 * lite's own default; lite has no per-agent keys or sessions). Without the key it could refuse
 * every memory call and nothing else, so it does not start.
 */
export function assertServerMayBoot(config: MemsvcConfig): void {
  if (config.mcp.transport !== 'streamable-http') return;
  const issues = config.profile === 'standard' ? standardGate(config) : liteCredential(config);
  if (issues.length > 0) throw new ConfigError(issues, config.profile);
}

function standardGate(config: MemsvcConfig): ConfigIssue[] {
  if (config.auth.required || config.auth.allowUnauthenticatedHttp) return [];
  return [
    {
      variable: 'AUTH_REQUIRED',
      message:
        'the standard (multi-tenant) profile will not serve MCP over streamable-http without authentication. ' +
        'Set AUTH_REQUIRED=true (with JWT_SECRET), or ALLOW_UNAUTHENTICATED_HTTP=true to accept that anyone who ' +
        'reaches the port can read and write every tenant, or use DEPLOYMENT_PROFILE=lite for a single user',
    },
  ];
}

function liteCredential(config: MemsvcConfig): ConfigIssue[] {
  if (!config.auth.required || config.auth.apiKey !== undefined) return [];
  return [
    {
      variable: 'MEMSVC_API_KEY',
      message:
        'is required with AUTH_REQUIRED=true on the lite profile over streamable-http: it is the one credential lite accepts ' +
        "(per-agent keys and sessions are the standard profile's)",
    },
  ];
}
