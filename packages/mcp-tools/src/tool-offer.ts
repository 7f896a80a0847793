import { CALLABLE_BY_DEFAULT, DEFAULT_TOOL_SETS, type ToolSetName, toolsOfSets } from '@memsvc/config';
import { MemsvcError } from '@memsvc/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AdminAuthEvent } from './run-tool.js';
import { ADMIN_TOOLS, type ToolName } from './tool-names.js';
import { toolError } from './tool-result.js';

/** Which tools a server runs and lists: the chosen sets, and the admin tools listed only where they can work. */
export interface ToolOffer {
  /** MCP_TOOL_SETS: the sets listed; DEFAULT_TOOL_SETS when not given. */
  readonly toolSets?: readonly ToolSetName[] | undefined;
  /** The sets that run when called by name; `toolSets` when those were given, else CALLABLE_BY_DEFAULT. */
  readonly callableToolSets?: readonly ToolSetName[] | undefined;
  /** Whether MCP_ADMIN_TOKEN is set: without it every admin call is refused, so none is listed. */
  readonly adminTokenSet: boolean;
}

/**
 * The tools a server with this offer runs when called by name: with no sets chosen, every tool of
 * the spec (listed or not); with sets chosen, theirs alone. An admin tool among them runs even
 * when it is not listed, so a call to it is refused by the admin check as it always was —
 * logged, counted by the rate limiter — rather than by its absence.
 */
export function runnableTools(offer: ToolOffer): ReadonlySet<ToolName> {
  return toolsOfSets(offer.callableToolSets ?? offer.toolSets ?? CALLABLE_BY_DEFAULT);
}

/** The tools a server with this offer lists in `tools/list`: the listed sets' runnable tools, admin ones only with a token. */
export function listedTools(offer: ToolOffer): ReadonlySet<ToolName> {
  const runnable = runnableTools(offer);
  return new Set(
    [...toolsOfSets(offer.toolSets ?? DEFAULT_TOOL_SETS)].filter(
      (tool) => runnable.has(tool) && (offer.adminTokenSet || !ADMIN_TOOLS.has(tool)),
    ),
  );
}

/**
 * The answer to a call of a tool outside the chosen sets (registered but disabled, so the SDK
 * refuses it before its body): NOT_FOUND naming the tool. An admin call is on record all the
 * same (spec §5.6): an `admin_auth_denied` line.
 */
export function notOfferedResult(tool: string, onAdminAuth: ((event: AdminAuthEvent) => void) | undefined): CallToolResult {
  if (ADMIN_TOOLS.has(tool as ToolName)) onAdminAuth?.({ event: 'admin_auth_denied', tool, reason: 'tool-not-offered' });
  return toolError(
    new MemsvcError('NOT_FOUND', `${tool} is not offered by this server (its operator chooses the tools with MCP_TOOL_SETS)`, { tool }),
  );
}
