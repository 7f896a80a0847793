import { type Clock, MEMORY_LIMITS, type MemoryEngine, type MemoryRecord, packContext } from '@memsvc/core';
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { memoryJson } from './memory-json.js';
import { runTool, type ToolPipeline } from './run-tool.js';
import { toolSuccess } from './tool-result.js';

/** The address of one memory as an MCP resource. */
export const MEMORY_RESOURCE_TEMPLATE = 'memsvc://memories/{id}';

/** Room for the longest memory and its framing: a resource shows a memory whole. */
const WHOLE_MEMORY = { maxChars: MEMORY_LIMITS.contentMaxChars + 4096 };

/**
 * A memory as a resource a client can attach by its address (`memsvc://memories/<id>`). It is
 * read exactly as get_memory reads it, through runTool: the caller's tenant, the memories:read
 * scope, the hooks. Its text is the memory framed as the context tools frame memories — fenced
 * as untrusted data, dated, tagged — for a client that hands it to a model as it is. There is no
 * listing: a tenant's memories are too many to list whole, and recall finds the ones that matter.
 */
export function registerMemoryResource(server: McpServer, engine: MemoryEngine, clock: Clock, pipeline: ToolPipeline): void {
  server.registerResource(
    'memory',
    new ResourceTemplate(MEMORY_RESOURCE_TEMPLATE, { list: undefined }),
    {
      title: 'A memory',
      description: 'One stored memory by id, framed as untrusted data.',
      mimeType: 'text/markdown',
    },
    async (uri, variables, extra): Promise<ReadResourceResult> => {
      const id = String(variables.id ?? '');
      let read: MemoryRecord | undefined;
      const result = await runTool(
        pipeline,
        extra,
        { kind: 'memory', tool: 'get_memory', op: 'get', userId: undefined },
        async (context) => {
          read = await engine.get(context, id);
          return { tier: read.tier, result: toolSuccess({ found: true, memory: memoryJson(read) }) };
        },
      );
      const shown = result.structuredContent as { memory?: unknown; error?: { code: string; message: string } } | undefined;
      if (result.isError || read === undefined || shown?.memory === undefined) throw resourceError(shown?.error);
      const block = packContext([read], WHOLE_MEMORY, { now: clock.now() });
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: block.text }] };
    },
  );
}

/** A refused or failed read as the JSON-RPC error resources/read answers with (MCP: -32002 for not found). */
function resourceError(error: { code: string; message: string } | undefined): McpError {
  if (error?.code === 'NOT_FOUND') return new McpError(-32002, error.message, { code: error.code });
  if (error?.code === 'INVALID_INPUT') return new McpError(ErrorCode.InvalidParams, error.message, { code: error.code });
  return new McpError(ErrorCode.InvalidRequest, error?.message ?? 'this memory cannot be shown to this caller', {
    code: error?.code ?? 'FORBIDDEN',
  });
}
