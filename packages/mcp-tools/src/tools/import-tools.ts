import {
  checkWiredImportSource,
  IMPORT_MAX_FILE_BYTES,
  type ImportFile,
  type ImportStore,
  importMemsvcFile,
  MemsvcError,
  summarizeImport,
  toTenantId,
  WIRED_IMPORT_SOURCES,
} from '@memsvc/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { runTool, type ToolPipeline } from '../run-tool.js';
import { adminTokenArgument } from '../tool-arguments.js';
import { toolSuccess } from '../tool-result.js';

/** What `import_agent_memory` needs from the composing app. */
export interface ImportToolDependencies {
  readonly store: ImportStore;
  /**
   * Reads a server-side `path`, confined to IMPORT_ALLOWED_ROOT (symlinks resolved) and refusing
   * FIFOs, devices, oversized, binary and non-UTF-8 files before or while reading, with typed errors.
   */
  readonly readFile: (path: string) => Promise<ImportFile>;
}

/** Inline files: enough for a project's memory files, bounded like a server-side file. */
const MAX_INLINE_FILES = 100;

/** `import_agent_memory` (admin): memories from files into a tenant; today the `memsvc` source, our own JSONL export. */
export function registerImportTools(server: McpServer, imports: ImportToolDependencies, pipeline: ToolPipeline): void {
  server.registerTool(
    'import_agent_memory',
    {
      title: 'Import memories from files',
      description:
        `Admin. Imports memory files into the tenant userId. source: ${WIRED_IMPORT_SOURCES.join(', ')} (memsvc: an export_memories JSONL ` +
        'file, restored losslessly with its ids, versions, timestamps, markers, links and audit). Give either path (a file on the ' +
        'server, inside IMPORT_ALLOWED_ROOT) or files: [{path, content}] inline. Each file is imported whole or not at all; a ' +
        'memory id the tenant already holds is skipped (re-importing is idempotent), one another tenant holds fails the file. ' +
        'dryRun reports the same counts and writes nothing. Returns {source, dryRun, files: [{path, parsed, created, skipped, ' +
        'failed, vectorsDropped, error?}], totals}.',
      inputSchema: z
        .object({
          adminToken: adminTokenArgument,
          source: z
            .string()
            .max(64)
            .describe(`Where the files come from: ${WIRED_IMPORT_SOURCES.join(', ')}.`),
          userId: z.string().min(1).max(256).describe('The tenant the memories are written into.'),
          path: z
            .string()
            .min(1)
            .max(4096)
            .describe('A file on the server, inside IMPORT_ALLOWED_ROOT (relative paths start there).')
            .optional(),
          files: z
            .array(z.object({ path: z.string().min(1).max(4096), content: z.string() }).strict())
            .min(1)
            .max(MAX_INLINE_FILES)
            .describe('The files inline, for a client without access to the server filesystem.')
            .optional(),
          dryRun: z.boolean().default(false).describe('Report what would be imported; write nothing.'),
        })
        .strict(),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'admin', tool: 'import_agent_memory', adminToken: args.adminToken }, async () => {
        const source = checkWiredImportSource(args.source);
        const tenant = toTenantId(args.userId);
        const files = await filesOf(args, imports);
        const summaries = [];
        // One file at a time: each is its own transaction, and a large import should not hold several.
        for (const file of files) summaries.push(await importMemsvcFile(imports.store, tenant, file, args.dryRun));
        return { result: toolSuccess({ ...summarizeImport(source, args.dryRun, summaries) }) };
      }),
  );
}

async function filesOf(
  args: { path?: string | undefined; files?: readonly ImportFile[] | undefined },
  imports: ImportToolDependencies,
): Promise<readonly ImportFile[]> {
  if ((args.path === undefined) === (args.files === undefined)) {
    throw new MemsvcError('INVALID_INPUT', 'give either path (a server-side file) or files (inline), not both or neither', {
      field: args.path === undefined ? 'path' : 'files',
    });
  }
  if (args.path !== undefined) return [await imports.readFile(args.path)];
  const files = args.files ?? [];
  files.forEach((file, index) => {
    // The same refusals as for a file on disk; content arrives already decoded, so UTF-8 holds.
    if (file.content.length > IMPORT_MAX_FILE_BYTES) {
      throw new MemsvcError('INVALID_INPUT', `files[${index}] is larger than ${IMPORT_MAX_FILE_BYTES} bytes`, {
        field: `files[${index}].content`,
      });
    }
    if (file.content.includes('\u0000')) {
      throw new MemsvcError('INVALID_INPUT', `files[${index}] is binary (it contains NUL characters), not text`, {
        field: `files[${index}].content`,
      });
    }
  });
  return files;
}
