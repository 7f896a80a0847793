import type { MemoryEngine } from '@memsvc/core';
import { MAX_QUERY_LENGTH, MAX_RECALL_LIMIT, PASSAGES, recallHits } from '@memsvc/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { memoryJson } from '../memory-json.js';
import { runTool, type ToolPipeline } from '../run-tool.js';
import {
  asOfArgument,
  asOfJson,
  isoDateArgument,
  metadataArgument,
  scopeArgument,
  tagsArgument,
  tierArgument,
  toTier,
  userIdArgument,
  wholeNumber,
} from '../tool-arguments.js';
import { toolSuccess } from '../tool-result.js';

/** `recall`. */
export function registerRetrievalTools(server: McpServer, engine: MemoryEngine, pipeline: ToolPipeline): void {
  server.registerTool(
    'recall',
    {
      title: 'Recall memories relevant to a query',
      description:
        'Find the memories most relevant to a question or topic, best first, from both tiers (short-term and long-term) unless ' +
        'type is given. Matches meaning (vector search) and words (full text with stemming, names and numbers), fused into ' +
        'one score in [0, 1]; a conversation turn also counts by how well the turns after it match. Filters: type, scope (exact), tags (a memory must carry all of them), metadata (must contain ' +
        'this object), createdFrom/createdTo. Superseded memories are hidden unless includeSuperseded is true; contradicted ' +
        'ones are returned with contradicted=true. A newer statement of the same fact ("I moved to Berlin" after "I live in Paris") counts as a replacement even when nothing marked it. asOf answers as your memory stood at a past moment (full text only). Each hit says when it was said (said: UTC to the minute, ago: relative to ' +
        "the server's clock). A memory that replaced a hit comes right before it (added with that hit's score if the search " +
        'missed it), with replaces: [ids]; the replaced hit has replacedBy: id and is probably outdated. ' +
        `A memory over ${PASSAGES.wholeUpTo} characters comes as the passage that matched (memory.content, "…" where cut; excerpt {start, end, length}); get_memory or fullContent returns it whole. ` +
        'semantic is true when the ranking used meaning (an embedding model: ollama, openai); vector is true when it used a query vector at all ' +
        '(the local embedder hashes words: vector but not semantic; neither when the provider is disabled or unreachable, full text alone). ' +
        'Returns {query, count, semantic, vector, results: [{score, said, ago, replacedBy?, replaces?, excerpt?, memory}]} (and asOf {at, unavailable, truncated} with asOf).',
      inputSchema: z
        .object({
          userId: userIdArgument,
          query: z.string().min(1).max(MAX_QUERY_LENGTH).describe('What to look for, in natural language or keywords.'),
          limit: wholeNumber(1, MAX_RECALL_LIMIT, `How many results, 1 to ${MAX_RECALL_LIMIT} (default 10).`).optional(),
          type: tierArgument.optional(),
          scope: scopeArgument.optional(),
          tags: tagsArgument.optional(),
          metadata: metadataArgument.optional(),
          createdFrom: isoDateArgument.optional(),
          createdTo: isoDateArgument.optional(),
          includeSuperseded: z.boolean().optional(),
          asOf: asOfArgument.optional(),
          fullContent: z
            .boolean()
            .optional()
            .describe(
              `Return long memories (over ${PASSAGES.wholeUpTo} characters) whole instead of the passage that matched (default false).`,
            ),
        })
        .strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'recall', op: 'recall', userId: args.userId }, async (context) => {
        const input = {
          query: args.query,
          limit: args.limit,
          tier: args.type ? toTier(args.type) : undefined,
          scope: args.scope,
          tags: args.tags,
          metadata: args.metadata,
          createdFrom: args.createdFrom,
          createdTo: args.createdTo,
          includeSuperseded: args.includeSuperseded,
          asOf: args.asOf,
        };
        const { results, semantic, vector, asOf } = await engine.recall(context, input);
        // As of a past moment, what replaced a hit later is the future: the hits stay as ranked then.
        const hits = await recallHits(engine, context, results, input, {
          replacements: asOf === undefined,
          ...(args.fullContent ? {} : { query: args.query }),
        });
        // A replacement recall found among its candidates (not marked by any write) is named too.
        const detected = new Map(results.flatMap((result) => (result.replacedBy ? [[result.memory.id, result.replacedBy] as const] : [])));
        const replacedByOf = (hit: (typeof hits)[number]) => hit.replacedBy ?? detected.get(hit.memory.id);
        return {
          tier: input.tier,
          result: toolSuccess({
            query: args.query,
            count: hits.length,
            semantic,
            vector,
            results: hits.map((hit) => ({
              score: Math.round(hit.score * 10_000) / 10_000,
              said: hit.said,
              ago: hit.ago,
              ...(replacedByOf(hit) !== undefined ? { replacedBy: replacedByOf(hit) } : {}),
              ...(hit.replaces !== undefined ? { replaces: hit.replaces } : {}),
              // A long memory is shown by the passage that matched: its content is that passage
              // ("…" where cut), and `excerpt` says which characters of how many it is.
              ...(hit.passage ? { excerpt: { start: hit.passage.start, end: hit.passage.end, length: hit.passage.length } } : {}),
              memory: hit.passage ? { ...memoryJson(hit.memory), content: hit.passage.text } : memoryJson(hit.memory),
            })),
            ...asOfJson(asOf),
          }),
        };
      }),
  );
}
