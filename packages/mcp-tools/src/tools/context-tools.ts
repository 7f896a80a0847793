import type { MemoryEngine } from '@memsvc/core';
import { CHAR_BUDGET, type ContextBlock, compressContext, loadContext, MAX_QUERY_LENGTH, promptContext, TOKEN_BUDGET } from '@memsvc/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { runTool, type ToolPipeline } from '../run-tool.js';
import { isoDateArgument, scopeArgument, tagsArgument, userIdArgument, wholeNumber } from '../tool-arguments.js';

/** The block as the first text item (ready to paste into a prompt), its figures as the second and as structuredContent. */
function contextResult(block: ContextBlock, extra: Record<string, unknown>): CallToolResult {
  const figures = {
    memoryCount: block.memoryIds.length,
    charCount: block.charCount,
    estimatedTokens: block.estimatedTokens,
    truncated: block.truncated,
    memoryIds: block.memoryIds,
    ...extra,
  };
  return {
    content: [
      { type: 'text', text: block.text },
      { type: 'text', text: JSON.stringify(figures) },
    ],
    structuredContent: { context: block.text, ...figures },
  };
}

const queryArgument = z.string().min(1).max(MAX_QUERY_LENGTH).describe('What the context is for, in natural language or keywords.');
const minScoreArgument = z.number().min(0).max(1).describe('Leave out memories scoring below this (recall score, 0 to 1; default 0).');
const FRAMING =
  "The block frames memories as untrusted data between <<untrusted-memory>> markers and gives the server's now; each entry " +
  'says when it was said (UTC to the minute) and how long ago, its tags and markers (short-term, contradicted). A memory ' +
  'that replaced another comes before it ("current, replaces <id>"); the replaced one is marked "outdated, replaced by <id>". ' +
  'An empty result is "(no memories)".';

/** `load_context`, `prompt_context` and `compress_context`. */
export function registerContextTools(server: McpServer, engine: MemoryEngine, pipeline: ToolPipeline): void {
  server.registerTool(
    'load_context',
    {
      title: 'Load session context',
      description:
        'For the start of a session, no query needed: the most recent memories (both tiers) followed by the most important ' +
        `ones, without repeats or superseded memories, packed within maxChars. ${FRAMING} Returns {context, memoryCount, charCount, truncated, memoryIds}.`,
      inputSchema: z
        .object({
          userId: userIdArgument,
          maxChars: wholeNumber(CHAR_BUDGET.min, CHAR_BUDGET.max, `Budget in characters, framing included (default 6000).`).optional(),
          recentLimit: wholeNumber(0, 20, 'How many recent memories (default 5).').optional(),
          importantLimit: wholeNumber(0, 30, 'How many important memories besides (default 10).').optional(),
          scope: scopeArgument.optional(),
          tags: tagsArgument.describe('Only memories carrying all of these tags.').optional(),
        })
        .strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'load_context', op: 'context', userId: args.userId }, async (context) => {
        const block = await loadContext(engine, context, args);
        return { result: contextResult(block, {}) };
      }),
  );

  server.registerTool(
    'prompt_context',
    {
      title: 'Build a prompt context for a query',
      description:
        'The memories most relevant to a query (ranked as recall ranks them), packed within a token budget (estimated: one ' +
        `token per CJK character or emoji, one per four other characters). ${FRAMING} Returns {context, memoryCount, estimatedTokens, tokenBudget, truncated, candidatesFound, memoryIds}.`,
      inputSchema: z
        .object({
          userId: userIdArgument,
          query: queryArgument,
          tokenBudget: wholeNumber(TOKEN_BUDGET.min, TOKEN_BUDGET.max, 'Budget in tokens, framing included (default 2000).').optional(),
          limit: wholeNumber(1, 50, 'Most memories to consider (default 20).').optional(),
          minScore: minScoreArgument.optional(),
          scope: scopeArgument.optional(),
          tags: tagsArgument.describe('Only memories carrying all of these tags.').optional(),
          createdFrom: isoDateArgument.optional(),
          createdTo: isoDateArgument.optional(),
        })
        .strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'prompt_context', op: 'context', userId: args.userId }, async (context) => {
        const block = await promptContext(engine, context, args);
        return {
          result: contextResult(block, { tokenBudget: args.tokenBudget ?? 2000, candidatesFound: block.candidatesFound }),
        };
      }),
  );

  server.registerTool(
    'compress_context',
    {
      title: 'Compress memories about a query into a character budget',
      description: `The memories most relevant to a query, packed within maxChars (the last one cut short if needed). ${FRAMING} Returns {context, memoryCount, charCount, truncated, candidatesFound, memoryIds}.`,
      inputSchema: z
        .object({
          userId: userIdArgument,
          query: queryArgument,
          maxChars: wholeNumber(CHAR_BUDGET.min, CHAR_BUDGET.max, 'Budget in characters, framing included (default 4000).').optional(),
          limit: wholeNumber(1, 30, 'Most memories to consider (default 10).').optional(),
          minScore: minScoreArgument.optional(),
          scope: scopeArgument.optional(),
          tags: tagsArgument.describe('Only memories carrying all of these tags.').optional(),
        })
        .strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'compress_context', op: 'context', userId: args.userId }, async (context) => {
        const block = await compressContext(engine, context, args);
        return { result: contextResult(block, { candidatesFound: block.candidatesFound }) };
      }),
  );
}
