import type { MemoryEngine } from '@memsvc/core';
import { MemsvcError } from '@memsvc/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { auditJson, memoryJson } from '../memory-json.js';
import { runTool, type ToolPipeline } from '../run-tool.js';
import {
  asOfArgument,
  asOfJson,
  memoryIdArgument,
  scopeArgument,
  tagsArgument,
  tierArgument,
  toTier,
  userIdArgument,
  wholeNumber,
} from '../tool-arguments.js';
import { toolSuccess } from '../tool-result.js';

/** `get_memory`, `list_memories` and `get_memory_audit`. */
export function registerReadTools(server: McpServer, engine: MemoryEngine, pipeline: ToolPipeline): void {
  server.registerTool(
    'get_memory',
    {
      title: 'Get a memory',
      description:
        'Read one memory by id (either tier). Reading counts as an access, which feeds promotion and importance. ' +
        "An unknown id, an expired or deleted memory, or another tenant's id fails with NOT_FOUND. With asOf, the memory as it " +
        'was at that moment (NOT_FOUND if it did not exist then or was deleted by then). Returns {found, memory}.',
      inputSchema: z
        .object({ userId: userIdArgument, memoryId: memoryIdArgument, scope: scopeArgument.optional(), asOf: asOfArgument.optional() })
        .strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'get_memory', op: 'get', userId: args.userId }, async (context) => {
        const memory = await engine.get(context, args.memoryId, { asOf: args.asOf });
        if (args.scope !== undefined && memory.scope !== args.scope) {
          throw new MemsvcError('NOT_FOUND', `memory ${args.memoryId} was not found in scope ${args.scope}`, { memoryId: args.memoryId });
        }
        return {
          tier: memory.tier,
          result: toolSuccess({ found: true, memory: memoryJson(memory), ...(args.asOf ? { asOf: args.asOf.toISOString() } : {}) }),
        };
      }),
  );

  server.registerTool(
    'list_memories',
    {
      title: 'List memories',
      description:
        'Page through memories newest first, across both tiers unless type is given. Filters: scope (exact), tags (a memory ' +
        'must carry all of them). Superseded memories are hidden unless includeSuperseded is true. Pass the returned ' +
        'nextCursor as cursor for the next page. asOf lists the memories as they stood at a past moment. ' +
        'Returns {memories, nextCursor, pagination} (and asOf {at, unavailable, truncated} with asOf).',
      inputSchema: z
        .object({
          userId: userIdArgument,
          type: tierArgument.optional(),
          limit: wholeNumber(1, 100, 'Page size, 1 to 100 (default 20).').optional(),
          cursor: z.string().max(64).describe('nextCursor from the previous page.').optional(),
          scope: scopeArgument.optional(),
          tags: tagsArgument.optional(),
          includeSuperseded: z.boolean().optional(),
          asOf: asOfArgument.optional(),
        })
        .strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'list_memories', op: 'list', userId: args.userId }, async (context) => {
        const page = await engine.list(context, {
          limit: args.limit ?? 20,
          ...(args.type ? { tier: toTier(args.type) } : {}),
          ...(args.cursor ? { cursor: args.cursor } : {}),
          ...(args.scope !== undefined ? { scope: args.scope } : {}),
          ...(args.tags ? { tags: args.tags } : {}),
          ...(args.includeSuperseded ? { includeSuperseded: true } : {}),
          ...(args.asOf ? { asOf: args.asOf } : {}),
        });
        return {
          ...(args.type ? { tier: toTier(args.type) } : {}),
          result: toolSuccess({
            memories: page.items.map(memoryJson),
            nextCursor: page.nextCursor ?? null,
            pagination: { hasNextPage: page.nextCursor !== undefined, endCursor: page.nextCursor ?? null },
            ...asOfJson(page.asOf),
          }),
        };
      }),
  );

  server.registerTool(
    'get_memory_audit',
    {
      title: 'Get the audit trail of a memory',
      description:
        'Every change to one memory, newest first: create, update, delete, restore, promote, contradiction marks. Each entry ' +
        'has the action, the actor, the version, before (the earlier values of the fields that changed) and after (the whole ' +
        'memory as the change left it, which restore_memory can bring back). Past the newest 100 entries of a memory, an ' +
        'entry keeps who, what and when, with after {trimmed: true, changed: [field names]} and before null. Returns {entries}.',
      inputSchema: z
        .object({
          userId: userIdArgument,
          memoryId: memoryIdArgument,
          limit: wholeNumber(1, 200, 'How many entries (default 50).').optional(),
        })
        .strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'get_memory_audit', op: 'audit', userId: args.userId }, async (context) => {
        const entries = await engine.audit(context, args.memoryId, args.limit ?? 50);
        return { result: toolSuccess({ entries: entries.map(auditJson) }) };
      }),
  );
}
