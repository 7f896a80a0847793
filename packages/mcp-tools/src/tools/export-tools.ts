import type { Clock } from '@memsvc/core';
import {
  EXPORT_DEFAULT_LIMIT,
  EXPORT_MAX_LIMIT,
  type ExportRequest,
  type ExportStore,
  readExportPage,
  readMarkdownExportPage,
} from '@memsvc/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { runTool, type ToolPipeline } from '../run-tool.js';
import { isoDateArgument, scopeArgument, tagsArgument, tierArgument, toTier, userIdArgument, wholeNumber } from '../tool-arguments.js';
import { toolSuccess } from '../tool-result.js';

/**
 * A tool result carries the page twice (as text and as structured content), so a page's lines or notes
 * stay within half of core's 4 MB page budget: a result of a few megabytes, never 100.
 */
const TOOL_PAGE_BYTES = 2 * 1024 * 1024;

/**
 * `export_memories`: the caller's own memories, page by page (issue 17) — as the lossless JSONL
 * interchange, or as markdown notes to read in Obsidian.
 */
export function registerExportTools(server: McpServer, exports: ExportStore, clock: Clock, pipeline: ToolPipeline): void {
  server.registerTool(
    'export_memories',
    {
      title: 'Export memories',
      description:
        'Export your memories (docs/export-format.md). format jsonl (the default) is the lossless interchange: every ' +
        'field, links, optionally the version history, the audit trail and the vectors; the first page starts with a ' +
        "header line; write every page's lines in order, one per line. Returns {format, header, lines, count, nextCursor}. " +
        'format markdown is for reading, e.g. as an Obsidian vault: one note per memory, YAML frontmatter with its ' +
        "fields, the content, and its links as [[wikilinks]]; write each note's content to its path. Returns " +
        '{format, notes: [{path, content}], count, nextCursor}; includeHistory, includeAudit and includeVectors are ' +
        'refused with it. Paged: pass nextCursor as cursor, with the same filters, until it is null. Filters: tier, ' +
        'scope (exact), tags (any of them), createdFrom/createdTo, includeDeleted, includeSuperseded.',
      inputSchema: z
        .object({
          userId: userIdArgument,
          format: z
            .enum(['jsonl', 'markdown'])
            .describe('jsonl (the default): the lossless interchange; markdown: one note per memory, for reading.')
            .optional(),
          tier: tierArgument.optional(),
          scope: scopeArgument.optional(),
          tags: tagsArgument.optional(),
          createdFrom: isoDateArgument.optional(),
          createdTo: isoDateArgument.optional(),
          includeDeleted: z.boolean().optional(),
          includeSuperseded: z.boolean().optional(),
          includeHistory: z.boolean().describe("jsonl only: add each memory's earlier versions.").optional(),
          includeAudit: z.boolean().describe("jsonl only: add each memory's audit trail.").optional(),
          includeVectors: z.boolean().describe("jsonl only: add each memory's embedding vector (large).").optional(),
          cursor: z.string().max(64).describe('nextCursor from the previous page.').optional(),
          limit: wholeNumber(
            1,
            EXPORT_MAX_LIMIT,
            `Memories per page, 1 to ${EXPORT_MAX_LIMIT} (default ${EXPORT_DEFAULT_LIMIT}).`,
          ).optional(),
        })
        .strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'memory', tool: 'export_memories', op: 'export', userId: args.userId }, async (context) => {
        const request: ExportRequest = {
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
          const page = await readMarkdownExportPage(exports, context.tenant, request);
          return {
            result: toolSuccess({
              format: 'markdown' as const,
              notes: page.notes.map((note) => ({ path: note.path, content: note.content })),
              count: page.count,
              nextCursor: page.nextCursor ?? null,
            }),
          };
        }
        const page = await readExportPage(exports, context.tenant, request, clock.now());
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
