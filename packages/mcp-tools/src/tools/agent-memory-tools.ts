import type { MemoryEngine } from '@memsvc/core';
import { forget, ingestConversation, MAX_QUERY_LENGTH, MAX_TURNS, MEMORY_LIMITS, reflect, remember } from '@memsvc/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { memoryJson, relatedJson } from '../memory-json.js';
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
import { toolSuccess } from '../tool-result.js';

/** `remember`, `forget`, `reflect` and `ingest_conversation`. */
export function registerAgentMemoryTools(server: McpServer, engine: MemoryEngine, pipeline: ToolPipeline): void {
  server.registerTool(
    'remember',
    {
      title: 'Remember something',
      description:
        'Store a fact, preference or note, letting memsvc pick the tier: type auto (default) keeps notes about the moment ' +
        '("currently", "today", "working on", …, or any ttl) short-term and everything else long-term. Duplicates are not ' +
        'stored twice: wasDeduped is true exactly when the memory was already there (memoryId is then the existing one). ' +
        'If you are recording a change of a fact you already stored (a move, a new manager, a new price), pass the old ' +
        "memories' ids as supersedes: they are retired in the same call and listed in superseded. " +
        'Returns {memoryId, resolvedType, wasDeduped, outcome, contradictions, related, superseded, memory}. "related" lists live ' +
        'memories this one may update or contradict ({id, content, createdAt, why}); a changed fact ("changed-fact") is ' +
        'marked replacedBy the new memory and stays visible, after it, in recall.',
      inputSchema: z
        .object({
          userId: userIdArgument,
          content: z.string().min(1).max(MEMORY_LIMITS.contentMaxChars).describe('What to remember, as a self-contained statement.'),
          type: z.enum(['auto', 'short-term', 'long-term']).optional(),
          scope: scopeArgument.optional(),
          tags: tagsArgument.optional(),
          metadata: metadataArgument.optional(),
          importance: z.number().min(0).max(1).optional(),
          ttl: wholeNumber(
            MEMORY_LIMITS.ttlMinSeconds,
            MEMORY_LIMITS.ttlMaxSeconds,
            'Short-term lifetime in seconds; implies short-term.',
          ).optional(),
          supersedes: supersedesArgument.optional(),
        })
        .strict(),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'remember', op: 'create', userId: args.userId }, async (context) => {
        const result = await remember(engine, context, {
          content: args.content,
          type: args.type === 'short-term' ? 'stm' : args.type === 'long-term' ? 'ltm' : 'auto',
          scope: args.scope,
          tags: args.tags,
          metadata: args.metadata,
          importance: args.importance,
          ttlSeconds: args.ttl,
          supersedes: args.supersedes,
        });
        return {
          tier: result.resolvedType,
          result: toolSuccess({
            memoryId: result.memory.id,
            resolvedType: result.resolvedType === 'stm' ? 'short-term' : 'long-term',
            wasDeduped: result.wasDeduped,
            outcome: result.outcome,
            contradictions: result.contradictions,
            related: relatedJson(result.related),
            superseded: result.superseded,
            memory: memoryJson(result.memory),
          }),
        };
      }),
  );

  server.registerTool(
    'forget',
    {
      title: 'Forget memories',
      description:
        'Delete one memory by memoryId, or the memories a query finds (both tiers, each by its own match: score ≥ minScore, default 0.3). Without ' +
        'confirm=true nothing is deleted: the result lists what would be. Deletes are audited and can be undone with ' +
        'restore_memory. Returns {dryRun, candidates: [{memoryId, content, score}], deleted: [ids], message}.',
      inputSchema: z
        .object({
          userId: userIdArgument,
          memoryId: memoryIdArgument.optional(),
          query: z.string().min(1).max(MAX_QUERY_LENGTH).optional(),
          limit: wholeNumber(1, 20, 'Most memories a query may delete (default 5).').optional(),
          minScore: z.number().min(0).max(1).optional(),
          scope: scopeArgument.optional(),
          confirm: z.boolean().optional(),
        })
        .strict(),
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'forget', op: 'delete', userId: args.userId }, async (context) => {
        const result = await forget(engine, context, args);
        const message = result.dryRun
          ? `${result.candidates.length} memories would be deleted; call again with confirm=true to delete them`
          : `deleted ${result.deleted.length} of ${result.candidates.length} memories; restore_memory brings any of them back`;
        return { result: toolSuccess({ ...result, message }) };
      }),
  );

  server.registerTool(
    'reflect',
    {
      title: 'Reflect on what is known about a topic',
      description:
        'A deterministic digest (no model involved) of the memories relevant to a query: the memories as a framed block ' +
        '(as prompt_context frames them: when each was said and how long ago, the current memory before the one it replaced), ' +
        'up to five themes (their most frequent tags, then words), their ids and the dates they span. ' +
        'Returns {query, summary, themes, sourceIds, memoryCount, dateRange}.',
      inputSchema: z
        .object({
          userId: userIdArgument,
          query: z.string().min(1).max(MAX_QUERY_LENGTH),
          limit: wholeNumber(1, 30, 'Most memories to consider (default 10).').optional(),
          minScore: z.number().min(0).max(1).optional(),
          scope: scopeArgument.optional(),
          tags: tagsArgument.describe('Only memories carrying all of these tags.').optional(),
        })
        .strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'reflect', op: 'recall', userId: args.userId }, async (context) => {
        const result = await reflect(engine, context, args);
        return { result: toolSuccess({ query: args.query, ...result }) };
      }),
  );

  server.registerTool(
    'ingest_conversation',
    {
      title: 'Ingest a conversation',
      description:
        'Store the turns of a conversation as long-term memories ("<role>: <text>", long turns split at paragraphs), with ' +
        'provenance in metadata.conversation {id, turn, chunk, role, date}. Each turn is also indexed with the two turns before it, ' +
        'its speaker and the date, so a question finds the answer even when its words were only in the question. Sending the ' +
        'same conversation again stores nothing (skipped counts those). Returns {conversationId, ingested, skipped, total, memoryIds}.',
      inputSchema: z
        .object({
          userId: userIdArgument,
          turns: z
            .array(z.object({ role: z.string().min(1).max(100), content: z.string().min(1).max(1_048_576) }).strict())
            .min(1)
            .max(MAX_TURNS),
          conversationId: z
            .string()
            .min(1)
            .max(128)
            .describe('Your id for this conversation; derived from the turns when omitted.')
            .optional(),
          date: isoDateArgument.describe('When the conversation took place (ISO 8601).').optional(),
          scope: scopeArgument.optional(),
          tags: tagsArgument.optional(),
          metadata: metadataArgument.optional(),
        })
        .strict(),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'ingest_conversation', op: 'create', userId: args.userId }, async (context) => {
        const result = await ingestConversation(engine, context, args);
        return { tier: 'ltm', result: toolSuccess({ ...result }) };
      }),
  );
}
