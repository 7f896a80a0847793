import type { MemoryEngine } from '@memsvc/core';
import { MAX_QUERY_LENGTH, MAX_TURNS, MEMORY_LIMITS, memoriesCounted } from '@memsvc/core';
import { z } from 'zod';
import { runTool, type ToolPipeline } from '../run-tool.js';
import {
  isoDateArgument,
  memoryIdArgument,
  metadataArgument,
  scopeArgument,
  supersedesArgument,
  tagsArgument,
  userIdArgument,
  wholeNumber,
} from '../tool-arguments.js';
import type { ToolRegistry } from '../tool-registry.js';
import { toolSuccess } from '../tool-result.js';
import { idsOutput, memoryOutput, objectOutput, toolInput, toolOutput } from '../tool-schemas.js';
import { writeOutcomeJson } from '../written-memory-json.js';
import { receiptJson } from './delete-tools.js';

/** `remember`, `forget`, `reflect` and `ingest_conversation`. */
export function registerAgentMemoryTools(tools: ToolRegistry, engine: MemoryEngine, pipeline: ToolPipeline): void {
  tools.register(
    'remember',
    {
      title: 'Remember something',
      description:
        'Store a fact, preference or note. The default tool for writing memory: it picks short-term for passing ' +
        'states ("currently…", or a ttl) and long-term otherwise, and never stores a duplicate (wasDeduped). "related" ' +
        'lists stored memories this one may change, each with a reason: check them. When you know the new statement ' +
        'replaces older ones (a move, a new value, e.g. one "related" names), pass their ids in supersedes: here, or ' +
        'afterwards with update_memory on the new memory.',
      inputSchema: toolInput({
        userId: userIdArgument,
        content: z.string().min(1).max(MEMORY_LIMITS.contentMaxChars).describe('A self-contained statement.'),
        type: z.enum(['auto', 'short-term', 'long-term']).optional(),
        scope: scopeArgument.optional(),
        tags: tagsArgument.optional(),
        metadata: metadataArgument.optional(),
        importance: z.number().min(0).max(1).optional(),
        ttl: wholeNumber(MEMORY_LIMITS.ttlMinSeconds, MEMORY_LIMITS.ttlMaxSeconds, 'Seconds to keep it; implies short-term.').optional(),
        supersedes: supersedesArgument.optional(),
        owner: z.string().min(1).max(128).describe("Write into this owner's space (scope), shared with you read-write.").optional(),
      }),
      outputSchema: toolOutput({
        memoryId: z.string(),
        resolvedType: z.string(),
        wasDeduped: z.boolean(),
        outcome: z.string(),
        duplicate: objectOutput,
        contradictions: z.array(objectOutput),
        related: z.array(objectOutput),
        superseded: z.array(objectOutput),
        memory: memoryOutput,
      }),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'remember', op: 'create', userId: args.userId }, async (context) => {
        const result = await engine.remember(context, {
          content: args.content,
          type: args.type === 'short-term' ? 'stm' : args.type === 'long-term' ? 'ltm' : 'auto',
          scope: args.scope,
          tags: args.tags,
          metadata: args.metadata,
          importance: args.importance,
          ttlSeconds: args.ttl,
          supersedes: args.supersedes,
          owner: args.owner,
        });
        return {
          tier: result.resolvedType,
          result: toolSuccess({
            memoryId: result.memory.id,
            resolvedType: result.resolvedType === 'stm' ? 'short-term' : 'long-term',
            ...writeOutcomeJson(result),
            wasDeduped: result.wasDeduped,
          }),
        };
      }),
  );

  tools.register(
    'forget',
    {
      title: 'Forget memories',
      description:
        'Delete a memory by memoryId, or the memories a query matches. Without confirm=true it only lists what it would ' +
        'delete: call it first without, check the candidates, then confirm. Deleted memories can be brought back with ' +
        'restore_memory; with erase=true they are erased for good instead (a receipt, nothing restorable).',
      inputSchema: toolInput({
        userId: userIdArgument,
        memoryId: memoryIdArgument.optional(),
        query: z.string().min(1).max(MAX_QUERY_LENGTH).optional(),
        limit: wholeNumber(1, 20, 'Most memories a query may delete (default 5).').optional(),
        minScore: z.number().min(0).max(1).describe('Least match score, 0 to 1 (default 0.3).').optional(),
        scope: scopeArgument.optional(),
        confirm: z.boolean().optional(),
        erase: z.boolean().optional().describe('Erase for good instead of deleting (with confirm).'),
      }),
      outputSchema: toolOutput({
        dryRun: z.boolean(),
        candidates: z.array(objectOutput),
        deleted: idsOutput,
        receipt: objectOutput,
        message: z.string(),
        candidateCount: z.number(),
        deletedCount: z.number(),
      }),
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'forget', op: 'delete', userId: args.userId }, async (context) => {
        const { receipt, ...result } = await engine.forget(context, args);
        const verb = args.erase ? 'erased' : 'deleted';
        const message = result.dryRun
          ? `${memoriesCounted(result.candidates.length)} would be ${verb}; call again with confirm=true to ${args.erase ? 'erase' : 'delete'} ${result.candidates.length === 1 ? 'it' : 'them'}`
          : receipt
            ? `erased ${result.deleted.length} of ${memoriesCounted(result.candidates.length)} for good; verify_erasure checks receipt ${receipt.erasureId}`
            : `deleted ${result.deleted.length} of ${memoriesCounted(result.candidates.length)}; restore_memory brings any of them back`;
        return { result: toolSuccess({ ...result, ...(receipt ? { receipt: receiptJson(receipt) } : {}), message }) };
      }),
  );

  tools.register(
    'reflect',
    {
      title: 'Reflect on what is known about a topic',
      description:
        'A digest of what memory holds about a topic: the relevant memories with when each was said, their main ' +
        'themes and the dates they span. Use it to review a topic; use recall to find specific facts.',
      inputSchema: toolInput({
        userId: userIdArgument,
        query: z.string().min(1).max(MAX_QUERY_LENGTH),
        limit: wholeNumber(1, 30, 'Most memories (default 10).').optional(),
        minScore: z.number().min(0).max(1).optional(),
        scope: scopeArgument.optional(),
        tags: tagsArgument.optional(),
      }),
      outputSchema: toolOutput({
        query: z.string(),
        summary: z.string(),
        themes: z.array(z.string()),
        sourceIds: idsOutput,
        memoryCount: z.number(),
        dateRange: objectOutput.nullable(),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'reflect', op: 'recall', userId: args.userId }, async (context) => {
        const result = await engine.reflect(context, args);
        return { result: toolSuccess({ query: args.query, ...result }) };
      }),
  );

  tools.register(
    'ingest_conversation',
    {
      title: 'Ingest a conversation',
      description:
        "Store a conversation's turns as long-term memories, each findable later with the turns around it. Use it to " +
        'keep a whole exchange; use remember for a single fact. Sending the same conversation again stores nothing new.',
      inputSchema: toolInput({
        userId: userIdArgument,
        turns: z
          .array(z.object({ role: z.string().min(1).max(100), content: z.string().min(1).max(1_048_576) }).strict())
          .min(1)
          .max(MAX_TURNS),
        conversationId: z.string().min(1).max(128).describe('Your id for it (derived from the turns if omitted).').optional(),
        date: isoDateArgument.describe('When it took place.').optional(),
        scope: scopeArgument.optional(),
        tags: tagsArgument.optional(),
        metadata: metadataArgument.optional(),
      }),
      outputSchema: toolOutput({
        conversationId: z.string(),
        ingested: z.number(),
        skipped: z.number(),
        total: z.number(),
        memoryIds: idsOutput,
      }),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'ingest_conversation', op: 'create', userId: args.userId }, async (context) => {
        const result = await engine.ingestConversation(context, args);
        return { tier: 'ltm', result: toolSuccess({ ...result }) };
      }),
  );
}
