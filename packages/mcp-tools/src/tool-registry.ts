import type { McpServer, RegisteredTool, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { checkStorableArguments } from './storable-arguments.js';
import { toolError } from './tool-result.js';

/** A tool as it is listed: its arguments and its structured result are zod schemas (tool-schemas.ts). */
export interface ToolDefinition<Input extends z.ZodType, Output extends z.ZodType> {
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Input;
  readonly outputSchema: Output;
  readonly annotations?: ToolAnnotations | undefined;
}

/** The request a tool call came in (its auth info, its progress token, its abort signal). */
export type ToolCallRequest = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A tool's body: the arguments the SDK parsed with its input schema, and the request they came in. */
export type ToolHandler<Input extends z.ZodType> = (
  args: z.output<Input>,
  request: ToolCallRequest,
) => CallToolResult | Promise<CallToolResult>;

/** How a tool's arguments are checked before its body. */
export interface ToolArgumentChecks {
  /**
   * The engine checks every argument the tool stores or looks up with core's storable-text and
   * nesting rules (create_memory, update_memory: content, tags, scope, metadata), so the
   * registry does not check them a second time. Default false: checked here.
   */
  readonly checkedByEngine?: boolean;
}

/**
 * The one way memsvc's tools are registered on a server, so every tool runs the same pipeline:
 * the SDK checks the arguments against the input schema, then this refuses text no tool can
 * store (a NUL, a lone surrogate) and arguments nested too deep (checkStorableArguments) unless
 * the engine checks them itself, then the tool's body runs (which goes through runTool). One
 * rule for every tool instead of one per field. It keeps the registered tools by name, for the
 * offer to disable those not offered.
 */
export class ToolRegistry {
  readonly #server: McpServer;
  readonly #onRefusedArguments: (tool: string) => void;
  readonly #registered = new Map<string, RegisteredTool>();

  /** `onRefusedArguments` hears of every call whose arguments are refused before its body runs. */
  constructor(server: McpServer, onRefusedArguments: (tool: string) => void) {
    this.#server = server;
    this.#onRefusedArguments = onRefusedArguments;
  }

  /** Registers tool `name` on the server, its handler behind the storable-arguments check. */
  register<Input extends z.ZodType, Output extends z.ZodType>(
    name: string,
    definition: ToolDefinition<Input, Output>,
    handler: ToolHandler<Input>,
    checks: ToolArgumentChecks = {},
  ): RegisteredTool {
    const checked = (args: z.output<Input>, request: ToolCallRequest) => {
      if (checks.checkedByEngine) return handler(args, request);
      try {
        checkStorableArguments(args);
      } catch (error) {
        this.#onRefusedArguments(name);
        return toolError(error);
      }
      return handler(args, request);
    };
    // The SDK types a callback by a conditional on the schema, which TypeScript cannot resolve
    // for a generic one: `checked` is that callback for a schema (not a raw shape) by construction.
    const tool = this.#server.registerTool(name, definition, checked as ToolCallback<Input>);
    // No tool runs as an MCP task: the SDK's default `execution` says so in every listing, which
    // is what a client assumes when it is absent (about 40 bytes per tool saved).
    tool.execution = undefined;
    this.#registered.set(name, tool);
    return tool;
  }

  /** Every tool registered so far, by name. */
  get registered(): ReadonlyMap<string, RegisteredTool> {
    return this.#registered;
  }
}
