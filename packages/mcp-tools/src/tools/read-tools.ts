import type { MemoryEngine } from '@memsvc/core';
import { MemsvcError } from '@memsvc/core';
import { z } from 'zod';
import { auditJson, memoryJson } from '../memory-json.js';
import { runTool, type ToolPipeline } from '../run-tool.js';
import {
  asOfArgument,
  asOfJson,
  memoryIdArgument,
  scopeArgument,
  sharedLabel,
  spaceNameArgument,
  tagsArgument,
  tierArgument,
  toTier,
  userIdArgument,
  wholeNumber,
} from '../tool-arguments.js';
import type { ToolRegistry } from '../tool-registry.js';
import { toolSuccess } from '../tool-result.js';
import { memoryOutput, objectOutput, toolInput, toolOutput } from '../tool-schemas.js';

/** `get_memory`, `list_memories` and `get_memory_audit`. */
export function registerReadTools(tools: ToolRegistry, engine: MemoryEngine, pipeline: ToolPipeline): void {
  tools.register(
    'get_memory',
    {
      title: 'Get a memory',
      description:
        'Read one memory in full by id, yours or one in a space shared with you (labelled shared). With asOf, your memory as it was at that moment.',
      inputSchema: toolInput({
        userId: userIdArgument,
        memoryId: memoryIdArgument,
        scope: scopeArgument.optional(),
        asOf: asOfArgument.optional(),
      }),
      outputSchema: toolOutput({ found: z.boolean(), memory: memoryOutput, shared: objectOutput, asOf: z.string() }),
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
          result: toolSuccess({
            found: true,
            memory: memoryJson(memory),
            ...sharedLabel(memory, context.tenant),
            ...(args.asOf ? { asOf: args.asOf.toISOString() } : {}),
          }),
        };
      }),
  );

  tools.register(
    'list_memories',
    {
      title: 'List memories',
      description:
        'Page through memories, newest first, with exact filters (type, scope, tags). To find memories by meaning, use ' +
        'recall. Pass nextCursor back as cursor for the next page. With shared {owner, space}, a space shared with you instead of your own memories.',
      inputSchema: toolInput({
        userId: userIdArgument,
        type: tierArgument.optional(),
        limit: wholeNumber(1, 100, 'Page size (default 20).').optional(),
        cursor: z.string().max(64).optional(),
        scope: scopeArgument.optional(),
        tags: tagsArgument.describe('All of these tags.').optional(),
        includeSuperseded: z.boolean().optional(),
        asOf: asOfArgument.optional(),
        shared: spaceNameArgument.optional().describe('List this space shared with you: {owner, space}.'),
      }),
      outputSchema: toolOutput({
        memories: z.array(memoryOutput),
        nextCursor: z.string().nullable(),
        pagination: objectOutput,
        asOf: objectOutput,
      }),
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
          ...(args.shared ? { shared: args.shared } : {}),
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

  tools.register(
    'get_memory_audit',
    {
      title: 'Get the audit trail of a memory',
      description:
        'Every change to one memory, newest first: who did what, when, and the values before and after. Use it to ' +
        'pick a version for restore_memory.',
      inputSchema: toolInput({
        userId: userIdArgument,
        memoryId: memoryIdArgument,
        limit: wholeNumber(1, 200, 'Entries (default 50).').optional(),
      }),
      outputSchema: toolOutput({ entries: z.array(objectOutput) }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'get_memory_audit', op: 'audit', userId: args.userId }, async (context) => {
        const entries = await engine.audit(context, args.memoryId, args.limit ?? 50);
        return { result: toolSuccess({ entries: entries.map(auditJson) }) };
      }),
  );
}
