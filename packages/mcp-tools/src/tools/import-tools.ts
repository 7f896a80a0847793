import {
  type Clock,
  type ImportLedgerStore,
  type ImportStore,
  type MemoryEngine,
  MemsvcError,
  type ProgressListener,
  type TenantId,
  toTenantId,
} from '@memsvc/core';
import {
  type AgentFileSource,
  checkImportSource,
  IMPORT_MAX_FILE_BYTES,
  IMPORT_SOURCES,
  type ImportFile,
  type ImportSummary,
  importAgentFiles,
  importMemsvcFile,
  parseSecretsPolicy,
  SECRETS_POLICIES,
  summarizeImport,
  type UnreadableFile,
} from '@memsvc/import-export';
import { z } from 'zod';
import { runTool, type ToolPipeline } from '../run-tool.js';
import { adminTokenArgument, scopeArgument } from '../tool-arguments.js';
import { progressOf } from '../tool-progress.js';
import type { ToolRegistry } from '../tool-registry.js';
import { toolSuccess } from '../tool-result.js';
import { objectOutput, toolInput, toolOutput } from '../tool-schemas.js';

/** A source's files found under a server-side path, relative to `root`. */
export interface ImportFolderFiles {
  readonly root: string;
  readonly files: readonly ImportFile[];
  readonly unreadable: readonly UnreadableFile[];
  readonly folderPaths: readonly string[];
}

/** What `import_agent_memory` needs from the composing app. */
export interface ImportToolDependencies {
  /** The bulk, lossless write of the `memsvc` source. */
  readonly store: ImportStore;
  /** Which memory each section of an agent's file became. */
  readonly ledger: ImportLedgerStore;
  /**
   * Reads a server-side `path`, confined to IMPORT_ALLOWED_ROOT (symlinks resolved) and refusing
   * FIFOs, devices, oversized, binary and non-UTF-8 files before or while reading, with typed errors.
   */
  readonly readFile: (path: string) => Promise<ImportFile>;
  /** Finds and reads an agent's files under a server-side path, with the same confinement, each file failing alone. */
  readonly readFolder: (path: string, source: AgentFileSource) => Promise<ImportFolderFiles>;
}

/** Inline files: enough for a project's memory files, bounded like a server-side file. */
const MAX_INLINE_FILES = 100;
/** The audit actor of imported writes: an admin call, whoever holds the token. */
const IMPORT_ACTOR = { id: 'admin:import' } as const;

/** `import_agent_memory` (admin): memories from files into a tenant — agents' memory files, or memsvc's own export. */
export function registerImportTools(
  tools: ToolRegistry,
  imports: ImportToolDependencies,
  engine: MemoryEngine,
  clock: Clock,
  pipeline: ToolPipeline,
): void {
  tools.register(
    'import_agent_memory',
    {
      title: 'Import memories from files',
      description:
        `Admin. Import memory files into a tenant. source: ${IMPORT_SOURCES.join(', ')}. An agent's files (CLAUDE.md, ` +
        'AGENTS.md, Cursor rules, …) become one memory per section; importing again updates changed sections only. ' +
        'memsvc restores an export_memories JSONL file as it was. Give path (a folder or file on the server) or files ' +
        'inline. Try dryRun first: it writes nothing.',
      inputSchema: toolInput({
        adminToken: adminTokenArgument,
        source: z
          .string()
          .max(64)
          .describe(`One of ${IMPORT_SOURCES.join(', ')}.`),
        userId: z.string().min(1).max(256).describe('The tenant to import into.'),
        path: z.string().min(1).max(4096).describe('A folder or file on the server.').optional(),
        files: z
          .array(z.object({ path: z.string().min(1).max(4096), content: z.string() }).strict())
          .min(1)
          .max(MAX_INLINE_FILES)
          .describe('The files inline, paths relative to the project.')
          .optional(),
        root: z.string().min(1).max(1024).describe('Inline files: the project they come from.').optional(),
        scope: scopeArgument.optional(),
        secretsPolicy: z
          .string()
          .max(16)
          .describe(`${SECRETS_POLICIES.join(', ')} (default redact).`)
          .optional(),
        splitHeadings: z.boolean().describe('One memory per section (default) or per file.').optional(),
        dryRun: z.boolean().default(false),
      }),
      outputSchema: toolOutput({
        source: z.string(),
        dryRun: z.boolean(),
        files: z.array(objectOutput),
        totals: objectOutput,
        abortedBySecrets: z.boolean(),
      }),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, request) =>
      runTool(pipeline, request, { kind: 'admin', tool: 'import_agent_memory', adminToken: args.adminToken }, async () => {
        const source = checkImportSource(args.source);
        const tenant = toTenantId(args.userId);
        checkOneInput(args);
        const onProgress = progressOf(request);
        onProgress?.({ done: 0, message: 'files imported' });
        const summary =
          source === 'memsvc'
            ? await importExport(imports, tenant, args, onProgress)
            : await importAgent(imports, { engine, ledger: imports.ledger, clock }, tenant, source, args, onProgress);
        return { result: toolSuccess({ ...summary }) };
      }),
  );
}

interface ImportArguments {
  readonly path?: string | undefined;
  readonly files?: readonly ImportFile[] | undefined;
  readonly root?: string | undefined;
  readonly scope?: string | undefined;
  readonly secretsPolicy?: string | undefined;
  readonly splitHeadings?: boolean | undefined;
  readonly dryRun: boolean;
}

async function importExport(
  imports: ImportToolDependencies,
  tenant: TenantId,
  args: ImportArguments,
  onProgress: ProgressListener | undefined,
): Promise<ImportSummary> {
  // An export is restored as it was: nothing about it may be re-scoped, split or redacted.
  for (const field of ['root', 'scope', 'secretsPolicy', 'splitHeadings'] as const) {
    if (args[field] !== undefined) {
      throw new MemsvcError('INVALID_INPUT', `${field} applies to the agent sources, not to memsvc (a lossless restore)`, { field });
    }
  }
  const files = args.path !== undefined ? [await imports.readFile(args.path)] : checkInlineFiles(args.files ?? []);
  const summaries = [];
  // One file at a time: each is its own transaction, and a large import should not hold several.
  for (const file of files) {
    summaries.push(await importMemsvcFile(imports.store, tenant, file, args.dryRun));
    onProgress?.({ done: summaries.length, total: files.length, message: 'files imported' });
  }
  return summarizeImport('memsvc', args.dryRun, summaries);
}

async function importAgent(
  imports: ImportToolDependencies,
  dependencies: Parameters<typeof importAgentFiles>[0],
  tenant: TenantId,
  source: AgentFileSource,
  args: ImportArguments,
  onProgress: ProgressListener | undefined,
): Promise<ImportSummary> {
  const secretsPolicy = parseSecretsPolicy(args.secretsPolicy);
  if (args.path !== undefined && args.root !== undefined) {
    throw new MemsvcError('INVALID_INPUT', 'root names inline files; a server-side path is its own name', { field: 'root' });
  }
  const folder =
    args.path !== undefined
      ? { ...(await imports.readFolder(args.path, source)), wholeFolder: true }
      : { root: args.root ?? 'inline', files: checkInlineFiles(args.files ?? []), unreadable: [], wholeFolder: false };
  return importAgentFiles(
    dependencies,
    { tenant, actor: IMPORT_ACTOR },
    {
      source,
      ...folder,
      scope: args.scope ?? null,
      secretsPolicy,
      splitHeadings: args.splitHeadings ?? true,
      dryRun: args.dryRun,
      onProgress,
    },
  );
}

function checkOneInput(args: ImportArguments): void {
  if ((args.path === undefined) === (args.files === undefined)) {
    throw new MemsvcError('INVALID_INPUT', 'give either path (a server-side folder or file) or files (inline), not both or neither', {
      field: args.path === undefined ? 'path' : 'files',
    });
  }
}

/** The same refusals as for a file on disk; content arrives already decoded, so UTF-8 holds. */
function checkInlineFiles(files: readonly ImportFile[]): readonly ImportFile[] {
  files.forEach((file, index) => {
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
