import type { MemoryEngine } from '@memsvc/core';
import { MEMORY_LIMITS } from '@memsvc/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { memoryJson, relatedJson } from '../memory-json.js';
import { runTool, type ToolPipeline } from '../run-tool.js';
import {
  memoryIdArgument,
  metadataArgument,
  scopeArgument,
  supersedesArgument,
  tagsArgument,
  tierArgument,
  toTier,
  userIdArgument,
  wholeNumber,
} from '../tool-arguments.js';
import { toolSuccess } from '../tool-result.js';

const contentArgument = z
  .string()
  .min(1)
  .max(MEMORY_LIMITS.contentMaxChars)
  .describe(`The memory text, 1 to ${MEMORY_LIMITS.contentMaxChars} characters.`);
const ttlArgument = wholeNumber(
  MEMORY_LIMITS.ttlMinSeconds,
  MEMORY_LIMITS.ttlMaxSeconds,
  `Short-term lifetime in seconds (${MEMORY_LIMITS.ttlMinSeconds}–${MEMORY_LIMITS.ttlMaxSeconds}); default ${MEMORY_LIMITS.ttlDefaultSeconds}. Ignored for long-term.`,
);
const importanceArgument = z
  .number()
  .min(0)
  .max(1)
  .describe('How important this is, 0 to 1. Kept as given (absent stays absent and counts as 0.5); it feeds the importance score.');

// Schemas are built once per process, not per server: the server is created per request.
const createMemoryInput = z
  .object({
    userId: userIdArgument,
    content: contentArgument,
    type: tierArgument,
    scope: scopeArgument.optional(),
    tags: tagsArgument.optional(),
    metadata: metadataArgument.optional(),
    importance: importanceArgument.optional(),
    pinned: z.boolean().describe('Pinned memories are never pruned.').optional(),
    ttl: ttlArgument.optional(),
    supersedes: supersedesArgument.optional(),
  })
  .strict();

const updateMemoryInput = z
  .object({
    userId: userIdArgument,
    memoryId: memoryIdArgument,
    expectedVersion: wholeNumber(1, 2_147_483_647, 'The version you read (optimistic concurrency).'),
    content: contentArgument.optional(),
    tags: tagsArgument.optional(),
    metadata: metadataArgument.optional(),
    importance: importanceArgument.nullable().optional(),
    pinned: z.boolean().optional(),
    ttl: ttlArgument.optional(),
    supersedes: supersedesArgument.optional(),
    scope: scopeArgument.describe("Ignored (kept for compatibility): a memory's scope does not change.").optional(),
    actorLabel: z.string().max(256).describe('Ignored (kept for compatibility).').optional(),
  })
  .strict();

/** `create_memory` and `update_memory`. */
export function registerWriteTools(server: McpServer, engine: MemoryEngine, pipeline: ToolPipeline): void {
  server.registerTool(
    'create_memory',
    {
      title: 'Create a memory',
      description:
        'Store a memory in the tier you choose. If the same fact is already stored (identical text, or near-identical by ' +
        'embedding), nothing new is written: the result has outcome "duplicate" and the existing memory. If it contradicts ' +
        'an existing memory, both are marked contradicted (or the older is superseded, per server policy) and listed in ' +
        '"contradictions". When you know this memory replaces others (a fact changed: a move, a new port, a new date), name them ' +
        'in supersedes: they are retired in the same call and listed in "superseded" ({memoryId, version}). ' +
        '"contradictions". A newer statement of the same fact ("I moved to Berlin" after "I live in Paris") marks the ' +
        'older memory replacedBy the new one. Returns {memory, outcome, wasDeduped, contradictions, related, superseded, embedded}: ' +
        '"related" lists live memories this one may update or contradict ({id, content, createdAt, why}).',
      inputSchema: createMemoryInput,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'create_memory', op: 'create', userId: args.userId }, async (context) => {
        const result = await engine.create(context, {
          content: args.content,
          tier: toTier(args.type),
          scope: args.scope,
          tags: args.tags,
          metadata: args.metadata,
          importance: args.importance,
          pinned: args.pinned,
          ttlSeconds: args.ttl,
          supersedes: args.supersedes,
        });
        return {
          tier: result.memory.tier,
          result: toolSuccess({
            memory: memoryJson(result.memory),
            outcome: result.outcome,
            wasDeduped: result.outcome === 'duplicate',
            ...(result.duplicate ? { duplicate: result.duplicate } : {}),
            contradictions: result.contradictions,
            related: relatedJson(result.related),
            superseded: result.superseded,
            embedded: result.embedded,
          }),
        };
      }),
  );

  server.registerTool(
    'update_memory',
    {
      title: 'Update a memory',
      description:
        "Change a memory's content, tags, metadata, importance, pin or (short-term) ttl. expectedVersion must be the version " +
        'you read: if someone changed the memory since, the call fails with CONFLICT and the current version, and nothing ' +
        'changes — read it again and retry. metadata is merged into the existing object (set a key to null to remove it), and ' +
        'the merged object must stay within the 64 KiB metadata limit; ' +
        'tags replace the list only when given. When the updated memory now replaces others (the fact changed and older ' +
        'memories still state the old value), name them in supersedes: retired in the same call, or nothing changes at all. ' +
        'Returns {memory, superseded}.',
      inputSchema: updateMemoryInput,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'update_memory', op: 'update', userId: args.userId }, async (context) => {
        const { memory, superseded } = await engine.revise(
          context,
          args.memoryId,
          {
            content: args.content,
            tags: args.tags,
            metadata: args.metadata,
            importance: args.importance,
            pinned: args.pinned,
            ttlSeconds: args.ttl,
            supersedes: args.supersedes,
          },
          args.expectedVersion,
        );
        return { tier: memory.tier, result: toolSuccess({ memory: memoryJson(memory), superseded }) };
      }),
  );
}
