import { ConfigError } from './config-error.js';
import type { MemsvcConfig } from './config-types.js';

/**
 * Spec §5.4 and §7: a multi-tenant (`standard`) server on streamable HTTP refuses to start
 * unless callers must authenticate or the operator explicitly accepts an open server. The
 * `lite` profile is single-user, and stdio is reachable only by the process that spawned it.
 */
export function assertServerMayBoot(config: MemsvcConfig): void {
  if (config.mcp.transport !== 'streamable-http' || config.profile !== 'standard') return;
  if (config.auth.required || config.auth.allowUnauthenticatedHttp) return;
  throw new ConfigError(
    [
      {
        variable: 'AUTH_REQUIRED',
        message:
          'the standard (multi-tenant) profile will not serve MCP over streamable-http without authentication. ' +
          'Set AUTH_REQUIRED=true (with JWT_SECRET), or ALLOW_UNAUTHENTICATED_HTTP=true to accept that anyone who ' +
          'reaches the port can read and write every tenant, or use DEPLOYMENT_PROFILE=lite for a single user',
      },
    ],
    config.profile,
  );
}
