import type { Clock, ExportStore } from '@memsvc/core';
import { EXPORT_DEFAULT_LIMIT, EXPORT_MAX_LIMIT, type ExportRequest, readExportPage, readMarkdownExportPage } from '@memsvc/import-export';
import { z } from 'zod';
import { runTool, type ToolPipeline } from '../run-tool.js';
import { isoDateArgument, scopeArgument, tagsArgument, tierArgument, toTier, userIdArgument, wholeNumber } from '../tool-arguments.js';
import { progressOf } from '../tool-progress.js';
import type { ToolRegistry } from '../tool-registry.js';
import { toolSuccess } from '../tool-result.js';
import { objectOutput, toolInput, toolOutput } from '../tool-schemas.js';

/**
 * A tool result carries the page twice (as text and as structured content), so a page's lines or notes
 * stay within half of core's 4 MB page budget: a result of a few megabytes, never 100.
 */
const TOOL_PAGE_BYTES = 2 * 1024 * 1024;

/**
 * `export_memories`: the caller's own memories, page by page (issue 17) — as the lossless JSONL
 * interchange, or as markdown notes to read in Obsidian.
 */
export function registerExportTools(tools: ToolRegistry, exports: ExportStore, clock: Clock, pipeline: ToolPipeline): void {
  tools.register(
    'export_memories',
    {
      title: 'Export memories',
      description:
        'Export your memories, a page at a time: pass nextCursor back as cursor, with the same filters, until it is ' +
        'null. format jsonl (default): lossless lines to write in order (restorable by import). format markdown: one ' +
        'note per memory ({path, content}), e.g. for an Obsidian vault.',
      inputSchema: toolInput({
        userId: userIdArgument,
        format: z.enum(['jsonl', 'markdown']).optional(),
        tier: tierArgument.optional(),
        scope: scopeArgument.optional(),
        tags: tagsArgument.describe('Any of these tags.').optional(),
        createdFrom: isoDateArgument.optional(),
        createdTo: isoDateArgument.optional(),
        includeDeleted: z.boolean().optional(),
        includeSuperseded: z.boolean().optional(),
        includeHistory: z.boolean().describe('jsonl: earlier versions too.').optional(),
        includeAudit: z.boolean().describe('jsonl: audit trail too.').optional(),
        includeVectors: z.boolean().describe('jsonl: embedding vectors too (large).').optional(),
        cursor: z.string().max(64).optional(),
        limit: wholeNumber(1, EXPORT_MAX_LIMIT, `Memories per page (default ${EXPORT_DEFAULT_LIMIT}).`).optional(),
      }),
      outputSchema: toolOutput({
        format: z.enum(['jsonl', 'markdown']),
        header: objectOutput.nullable(),
        lines: z.array(z.string()),
        notes: z.array(objectOutput),
        count: z.number(),
        nextCursor: z.string().nullable(),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      runTool(pipeline, extra, { kind: 'memory', tool: 'export_memories', op: 'export', userId: args.userId }, async (context) => {
        // One page per call: progress says the page was started and how many memories it holds.
        const progress = progressOf(extra);
        progress?.({ done: 0, message: 'memories exported' });
        const exportRequest: ExportRequest = {
          tier: args.tier ? toTier(args.tier) : undefined,
          scope: args.scope,
          tags: args.tags,
          createdFrom: args.createdFrom,
          createdTo: args.createdTo,
          includeDeleted: args.includeDeleted,
          includeSuperseded: args.includeSuperseded,
          includeHistory: args.includeHistory,
          includeAudit: args.includeAudit,
          includeVectors: args.includeVectors,
          cursor: args.cursor,
          limit: args.limit,
          maxBytes: TOOL_PAGE_BYTES,
        };
        if (args.format === 'markdown') {
          const page = await readMarkdownExportPage(exports, context.tenant, exportRequest);
          progress?.({ done: page.count, message: 'memories exported' });
          return {
            result: toolSuccess({
              format: 'markdown' as const,
              notes: page.notes.map((note) => ({ path: note.path, content: note.content })),
              count: page.count,
              nextCursor: page.nextCursor ?? null,
            }),
          };
        }
        const page = await readExportPage(exports, context.tenant, exportRequest, clock.now());
        progress?.({ done: page.count, message: 'memories exported' });
        return {
          result: toolSuccess({
            format: 'jsonl' as const,
            header: page.header ?? null,
            lines: [...page.lines],
            count: page.count,
            nextCursor: page.nextCursor ?? null,
          }),
        };
      }),
  );
}
