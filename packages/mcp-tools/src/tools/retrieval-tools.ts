import type { MemoryEngine } from '@memsvc/core';
import { MAX_QUERY_LENGTH, MAX_RECALL_LIMIT } from '@memsvc/core';
import { z } from 'zod';
import { fusionJson, recallHitJson } from '../recall-hit-json.js';
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
import { objectOutput, toolInput, toolOutput } from '../tool-schemas.js';

/** `recall`. */
export function registerRetrievalTools(tools: ToolRegistry, engine: MemoryEngine, pipeline: ToolPipeline): void {
  tools.register(
    'recall',
    {
      title: 'Recall memories relevant to a query',
      description:
        'Find the memories most relevant to a question or topic, best first, by meaning and by words. The tool to ' +
        'look something up; prompt_context gives the same memories as a ready-to-paste block. Each hit: id, text, ' +
        'said/ago, score, and only the marks that apply (replacedBy: probably outdated, the memory that replaced it ' +
        'comes right before it; shared; type short-term; scope; tags). A long memory comes as the passage that ' +
        'matched (excerpt). get_memory returns the whole record. explain: true adds why each hit ranked.',
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
        explain: z.boolean().optional().describe('Per hit: list ranks and scores, fused match, each adjustment.'),
      }),
      outputSchema: toolOutput({
        count: z.number(),
        semantic: z.boolean(),
        vector: z.boolean(),
        results: z.array(
          z
            .looseObject({ id: z.string(), text: z.string(), said: z.string(), ago: z.string(), score: z.number(), replacedBy: z.string() })
            .partial(),
        ),
        asOf: objectOutput,
        fusion: objectOutput,
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'recall', op: 'recall', userId: args.userId }, async (context) => {
        const { results, semantic, vector, asOf, fusion } = await engine.recall(context, {
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
          explain: args.explain,
        });
        return {
          tier: args.type ? toTier(args.type) : undefined,
          // The text content is this same JSON (tool-result.ts): a client that reads only one of the
          // two gets every field, and the lean hits keep both halves small.
          result: toolSuccess({
            count: results.length,
            semantic,
            vector,
            results: results.map(recallHitJson),
            ...asOfJson(asOf),
            ...(fusion ? { fusion: fusionJson(fusion) } : {}),
          }),
        };
      }),
  );
}
