import { MemsvcError } from '@memsvc/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolError } from './tool-result.js';

const VALIDATION_PREFIX = /^(?:MCP error -?\d+: )?Input validation error: Invalid arguments for tool ([^:]+): /;
const UNKNOWN_TOOL = /^(?:MCP error -?\d+: )?Tool (\S+) (not found|disabled)$/;

/**
 * The SDK checks arguments against a tool's input schema before memsvc sees the call, and
 * reports a failure as plain text. This turns those texts into memsvc's typed error result
 * (`INVALID_INPUT` naming the field, as every other bad input gets), so clients branch on one
 * shape. It hooks the SDK's `createToolError`, which is private API: the end-to-end tests
 * assert the typed result, so an SDK change that bypasses the hook fails them.
 */
export function typeSdkToolErrors(
  server: McpServer,
  handlers: { onInvalidArguments?: (tool: string) => void; onDisabled?: (tool: string) => CallToolResult } = {},
): void {
  const { onInvalidArguments, onDisabled } = handlers;
  const target = server as unknown as { createToolError: (message: string) => CallToolResult };
  const original = target.createToolError.bind(server);
  target.createToolError = (message: string) => {
    const unknownTool = UNKNOWN_TOOL.exec(message);
    const [, tool = '', why] = unknownTool ?? [];
    // A disabled tool is one this server registered but does not offer (tool-offer.ts).
    if (unknownTool && why === 'disabled' && onDisabled) return onDisabled(tool);
    if (unknownTool) return toolError(new MemsvcError('NOT_FOUND', `there is no tool named ${tool}`, { tool }));
    const invalid = VALIDATION_PREFIX.exec(message);
    if (!invalid) return original(message);
    if (invalid[1]) onInvalidArguments?.(invalid[1]);
    const detail = message.replace(VALIDATION_PREFIX, '');
    const issue = firstIssue(detail);
    const field = issue?.path?.length ? issue.path.join('.') : undefined;
    return toolError(
      new MemsvcError('INVALID_INPUT', field ? `${field}: ${issue?.message ?? 'invalid value'}` : detail, field ? { field } : {}),
    );
  };
}

/**
 * The first issue of the SDK's text: one "<message> at <path>" line per issue (zod 4). An argument
 * the tool does not take is reported at the object holding it ("Unrecognized key: "x"", no path
 * at the top level): the argument itself is the field.
 */
function firstIssue(detail: string): { path?: string[]; message?: string } | undefined {
  const line = detail.split('\n')[0] ?? '';
  const unknownKey = /^Unrecognized keys?: "([^"]+)"(?:.*? at (\S+))?$/.exec(line);
  if (unknownKey)
    return { message: 'this tool takes no such argument', path: [...(unknownKey[2] ? [unknownKey[2]] : []), unknownKey[1] ?? ''] };
  const match = /^(.*) at (\S+)$/.exec(line);
  return match ? { message: match[1], path: [match[2] ?? ''] } : undefined;
}
