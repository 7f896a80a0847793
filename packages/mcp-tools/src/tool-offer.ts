import { DEFAULT_TOOL_SETS, MemsvcError, type ToolSetName, toolsOfSets } from '@memsvc/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AdminAuthEvent } from './run-tool.js';
import { ADMIN_TOOLS, type ToolName } from './tool-names.js';
import { toolError } from './tool-result.js';

/** Which tools a server lists: the chosen sets, and the admin tools only where they can work. */
export interface ToolOffer {
  /** MCP_TOOL_SETS; DEFAULT_TOOL_SETS when not given. */
  readonly toolSets?: readonly ToolSetName[] | undefined;
  /** Whether MCP_ADMIN_TOKEN is set: without it every admin call is refused, so none is listed. */
  readonly adminTokenSet: boolean;
}

/** The tools a server with this offer lists and runs. */
export function offeredTools(offer: ToolOffer): ReadonlySet<ToolName> {
  const chosen = toolsOfSets(offer.toolSets ?? DEFAULT_TOOL_SETS);
  return new Set([...chosen].filter((tool) => offer.adminTokenSet || !ADMIN_TOOLS.has(tool)));
}

/**
 * The answer to a call of a tool the server does not offer (it is registered but disabled, so
 * the SDK refuses it before its body). An admin tool is refused as it always was (spec §5.6):
 * FORBIDDEN, and an `admin_auth_denied` line, since every admin call is on record.
 */
export function notOfferedResult(
  tool: string,
  offer: ToolOffer,
  onAdminAuth: ((event: AdminAuthEvent) => void) | undefined,
): CallToolResult {
  if (ADMIN_TOOLS.has(tool as ToolName)) {
    const disabled = !offer.adminTokenSet;
    onAdminAuth?.({ event: 'admin_auth_denied', tool, reason: disabled ? 'admin-tools-disabled' : 'tool-not-offered' });
    if (disabled) {
      return toolError(
        new MemsvcError('FORBIDDEN', 'admin tools are disabled on this server: the operator has not set MCP_ADMIN_TOKEN', {
          field: 'adminToken',
        }),
      );
    }
  }
  return toolError(
    new MemsvcError('NOT_FOUND', `${tool} is not offered by this server (its operator chooses the tools with MCP_TOOL_SETS)`, { tool }),
  );
}
