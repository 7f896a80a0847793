import { adminTokenMatches } from '@memsvc/auth';
import { type Maintenance, MemsvcError, type Secret } from '@memsvc/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolError } from './tool-result.js';

/** One admin tool call's authorisation, for the `admin_auth_ok` / `admin_auth_denied` log line (spec §5.6, §6). */
export interface AdminAuthEvent {
  readonly event: 'admin_auth_ok' | 'admin_auth_denied';
  readonly tool: string;
  /** Why a call was denied; never the token itself. */
  readonly reason?: 'missing-token' | 'wrong-token' | 'admin-tools-disabled' | 'invalid-arguments';
}

/** What the admin tools need from the composing app. */
export interface AdminToolDependencies {
  readonly maintenance: Maintenance;
  /** `MCP_ADMIN_TOKEN`; when unset every admin call is denied. */
  readonly adminToken: Secret | undefined;
  /** Called once for every admin tool call: the app writes the structured log line. */
  readonly onAdminAuth: (event: AdminAuthEvent) => void;
  readonly onInternalError?: (error: unknown, tool: string) => void;
}

/**
 * Runs an admin tool: the presented `adminToken` is compared with MCP_ADMIN_TOKEN in constant
 * time, every call is reported as allowed or denied, and a denied call does nothing.
 */
export async function runAdminTool(
  dependencies: AdminToolDependencies,
  call: { tool: string; adminToken: string | undefined },
  body: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const reason =
    dependencies.adminToken === undefined
      ? 'admin-tools-disabled'
      : !call.adminToken
        ? 'missing-token'
        : adminTokenMatches(dependencies.adminToken, call.adminToken)
          ? undefined
          : 'wrong-token';
  dependencies.onAdminAuth(reason ? { event: 'admin_auth_denied', tool: call.tool, reason } : { event: 'admin_auth_ok', tool: call.tool });
  if (reason) {
    const message =
      reason === 'admin-tools-disabled'
        ? 'admin tools are disabled on this server: the operator has not set MCP_ADMIN_TOKEN'
        : 'adminToken is missing or wrong: admin tools need the token the server was configured with (MCP_ADMIN_TOKEN)';
    return toolError(new MemsvcError('FORBIDDEN', message, { field: 'adminToken' }));
  }
  try {
    return await body();
  } catch (error) {
    return toolError(error, (internal) => dependencies.onInternalError?.(internal, call.tool));
  }
}
