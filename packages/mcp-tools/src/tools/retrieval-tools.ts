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
        const { results, semantic, vector, asOf } = await engine.recall(context, {
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
          passages: !args.fullContent,
        });
        return {
          tier: args.type ? toTier(args.type) : undefined,
          result: toolSuccess({
            query: args.query,
            count: results.length,
            semantic,
            vector,
            results: results.map((hit) => ({
              score: Math.round(hit.score * 10_000) / 10_000,
              said: hit.said,
              ago: hit.ago,
              ...(hit.replacedBy !== undefined ? { replacedBy: hit.replacedBy } : {}),
              ...(hit.replaces !== undefined ? { replaces: hit.replaces } : {}),
              ...(hit.shared !== undefined ? { shared: hit.shared } : {}),
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
