import type { MemoryEngine } from '@memsvc/core';
import { MEMORY_LIMITS } from '@memsvc/core';
import { z } from 'zod';
import { relatedJson } from '../memory-json.js';
import { runTool, type ToolPipeline } from '../run-tool.js';
import {
  ignoredArgument,
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
import type { ToolRegistry } from '../tool-registry.js';
import { toolSuccess } from '../tool-result.js';
import { memoryOutput, objectOutput, toolInput, toolOutput } from '../tool-schemas.js';
import { nonEmpty, writeOutcomeJson, writtenMemoryJson } from '../written-memory-json.js';

const contentArgument = z.string().min(1).max(MEMORY_LIMITS.contentMaxChars).describe('The memory text.');
const ttlArgument = wholeNumber(MEMORY_LIMITS.ttlMinSeconds, MEMORY_LIMITS.ttlMaxSeconds, 'Short-term lifetime in seconds.');
const importanceArgument = z.number().min(0).max(1).describe('0 to 1 (default 0.5).');

// Schemas are built once per process, not per server: the server is created per request.
const createMemoryInput = toolInput({
  userId: userIdArgument,
  content: contentArgument,
  type: tierArgument,
  scope: scopeArgument.optional(),
  tags: tagsArgument.optional(),
  metadata: metadataArgument.optional(),
  importance: importanceArgument.optional(),
  pinned: z.boolean().describe('Never pruned.').optional(),
  ttl: ttlArgument.optional(),
  supersedes: supersedesArgument.optional(),
  owner: z.string().min(1).max(128).describe("Write into this owner's space (scope), shared with you read-write.").optional(),
});

const updateMemoryInput = toolInput({
  userId: userIdArgument,
  memoryId: memoryIdArgument,
  expectedVersion: wholeNumber(1, 2_147_483_647, 'The version you read.'),
  content: contentArgument.optional(),
  tags: tagsArgument.optional(),
  metadata: metadataArgument.describe('Merged into the existing keys; null removes a key.').optional(),
  importance: importanceArgument.nullable().optional(),
  pinned: z.boolean().optional(),
  ttl: ttlArgument.optional(),
  supersedes: supersedesArgument.optional(),
  scope: scopeArgument.describe('Ignored: a scope does not change.').optional(),
  actorLabel: ignoredArgument,
});

/**
 * What these tools store, the engine checks (core's checkContent, checkTags, checkScope,
 * checkMetadata: storable text, nesting): checked once, there, whoever calls the engine.
 */
const STORED_BY_ENGINE = { checkedByEngine: true } as const;

const writeOutput = {
  memory: memoryOutput,
  related: z.array(objectOutput),
  superseded: z.array(objectOutput),
};

/** `create_memory` and `update_memory`. */
export function registerWriteTools(tools: ToolRegistry, engine: MemoryEngine, pipeline: ToolPipeline): void {
  tools.register(
    'create_memory',
    {
      title: 'Create a memory',
      description:
        'Store a memory in the tier you choose (remember chooses for you). Returns its id and version, not the whole ' +
        'record (get_memory). A duplicate is not stored twice (outcome "duplicate" names the existing memory); a ' +
        'contradiction is listed in contradictions. "related" ' +
        'lists stored memories this one may change, each with a reason. When you know the new statement replaces ' +
        'older ones (a fact changed, e.g. one "related" names), pass their ids in supersedes: here, or afterwards ' +
        'with update_memory on the new memory.',
      inputSchema: createMemoryInput,
      outputSchema: toolOutput({
        ...writeOutput,
        outcome: z.string(),
        wasDeduped: z.boolean(),
        duplicate: objectOutput,
        contradictions: z.array(objectOutput),
        embedded: z.boolean(),
      }),
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
          owner: args.owner,
        });
        return {
          tier: result.memory.tier,
          result: toolSuccess({ ...writeOutcomeJson(result), embedded: result.embedded }),
        };
      }),
    STORED_BY_ENGINE,
  );

  tools.register(
    'update_memory',
    {
      title: 'Update a memory',
      description:
        "Change a memory's content, tags, metadata, importance, pin or ttl. Pass the version you read as " +
        'expectedVersion: if the memory changed since, the call fails with CONFLICT and changes nothing; read it ' +
        'again and retry. New content returns "related": stored memories it may change, each with a reason. When ' +
        'this memory replaces older ones (e.g. ones listed in "related"), pass their ids in supersedes.',
      inputSchema: updateMemoryInput,
      outputSchema: toolOutput(writeOutput),
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'update_memory', op: 'update', userId: args.userId }, async (context) => {
        const { memory, superseded, related } = await engine.revise(
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
        return {
          tier: memory.tier,
          result: toolSuccess({
            memory: writtenMemoryJson(memory),
            ...nonEmpty('related', relatedJson(related)),
            ...nonEmpty('superseded', superseded),
          }),
        };
      }),
    STORED_BY_ENGINE,
  );
}
