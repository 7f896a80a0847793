import type { MemoryEngine } from '@memsvc/core';
import { MAX_QUERY_LENGTH, MAX_RECALL_LIMIT } from '@memsvc/core';
import { z } from 'zod';
import { memoryJson } from '../memory-json.js';
import { runTool, type ToolPipeline } from '../run-tool.js';
import {
  asOfArgument,
  asOfJson,
  isoDateArgument,
  metadataArgument,
  scopeArgument,
  sharedArgument,
  sharedLabel,
  tagsArgument,
  tierArgument,
  toTier,
  userIdArgument,
  wholeNumber,
} from '../tool-arguments.js';
import type { ToolRegistry } from '../tool-registry.js';
import { toolSuccess } from '../tool-result.js';
import { memoryOutput, objectOutput, toolInput, toolOutput } from '../tool-schemas.js';

/** `recall`. */
export function registerRetrievalTools(tools: ToolRegistry, engine: MemoryEngine, pipeline: ToolPipeline): void {
  tools.register(
    'recall',
    {
      title: 'Recall memories relevant to a query',
      description:
        'Find the memories most relevant to a question or topic, best first, by meaning and by words. The tool to ' +
        'look something up; prompt_context gives the same memories as a ready-to-paste block. A hit with replacedBy ' +
        'is probably outdated: the memory that replaced it comes right before it. Long memories come as the passage ' +
        'that matched (excerpt); get_memory returns them whole.',
      inputSchema: toolInput({
        userId: userIdArgument,
        query: z.string().min(1).max(MAX_QUERY_LENGTH).describe('A question or keywords.'),
        limit: wholeNumber(1, MAX_RECALL_LIMIT, 'Results (default 10).').optional(),
        type: tierArgument.optional(),
        scope: scopeArgument.optional(),
        tags: tagsArgument.describe('All of these tags.').optional(),
        metadata: metadataArgument.describe('Must contain this object.').optional(),
        createdFrom: isoDateArgument.optional(),
        createdTo: isoDateArgument.optional(),
        includeSuperseded: z.boolean().optional(),
        asOf: asOfArgument.optional(),
        fullContent: z.boolean().optional().describe('Long memories whole, not the matching passage.'),
        shared: sharedArgument.optional(),
      }),
      outputSchema: toolOutput({
        query: z.string(),
        count: z.number(),
        semantic: z.boolean(),
        vector: z.boolean(),
        results: z.array(
          z
            .looseObject({
              score: z.number(),
              said: z.string(),
              ago: z.string(),
              replacedBy: z.string(),
              shared: objectOutput,
              memory: memoryOutput,
            })
            .partial(),
        ),
        asOf: objectOutput,
      }),
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
          shared: args.shared,
        };
        const { results, semantic, vector, asOf } = await engine.recall(context, input);
        // As of a past moment, what replaced a hit later is the future: the hits stay as ranked then.
        const hits = await engine.recallHits(context, results, input, {
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
              ...sharedLabel(hit.memory, context.tenant),
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
