import type { TenantId } from '@memsvc/core';
import {
  checkImportSource,
  type ImportFileSummary,
  type ImportSource,
  type ImportSummary,
  importAgentFiles,
  importMemsvcFile,
  parseSecretsPolicy,
  summarizeImport,
} from '@memsvc/import-export';
import { readImportFile, readImportFolder } from '@memsvc/runtime';
import type { MemsvcStore } from '@memsvc/store-pg';
import { sql } from 'kysely';
import type { CliContext } from '../cli-context.js';
import { userFlagOrLiteUser } from '../operator-flags.js';
import { withDryRunRuntime, withOperatorRuntime } from '../operator-runtime.js';
import { EXIT_FAILURE } from '../run-command.js';
import { terminalText } from '../text-output.js';

const APPLICATION_NAME = 'memsvc-import';
/** The audit actor of the operator's imports. */
const CLI_IMPORT_ACTOR = { id: 'operator:import' } as const;

/** The options of `memsvc import`, as commander hands them over. */
export interface ImportOptions {
  readonly source: string;
  readonly path: string;
  readonly user?: string;
  readonly scope?: string;
  readonly secretsPolicy?: string;
  /** commander's `--no-split-headings`: false when given. */
  readonly splitHeadings?: boolean;
  readonly dryRun?: boolean;
  readonly json?: boolean;
}

/**
 * `memsvc import`: the `import_agent_memory` tool's work from the command line (issue 17). The
 * flags and the files are checked and read before the database is opened. Progress on stderr,
 * the summary on stdout; a file that failed (or a secret under `--secrets-policy fail`) exits 1.
 * The operator's own files are read: no import root.
 */
export async function importCommand(cli: CliContext, options: ImportOptions): Promise<void> {
  const source = checkImportSource(options.source, '--source');
  const tenant = userFlagOrLiteUser(cli, options.user);
  const dryRun = options.dryRun ?? false;
  const summary =
    source === 'memsvc'
      ? await importExportFile(cli, options, tenant, dryRun)
      : await importAgentFolder(cli, options, source, tenant, dryRun);
  if (options.json) cli.stdout.write(`${JSON.stringify(summary)}\n`);
  else for (const line of describeSummary(summary)) cli.stdout.write(`${line}\n`);
  if (summary.totals.failedFiles > 0 || summary.abortedBySecrets) cli.exitCode = EXIT_FAILURE;
}

async function importExportFile(cli: CliContext, options: ImportOptions, tenant: TenantId, dryRun: boolean): Promise<ImportSummary> {
  const file = await readImportFile(options.path, undefined);
  cli.stderr.write(`read ${terminalText(file.path)}\n`);
  return (dryRun ? withDryRunRuntime : withOperatorRuntime)(cli, APPLICATION_NAME, async ({ store }) => {
    cli.stderr.write(`${dryRun ? 'checking' : 'importing'} into ${tenant}…\n`);
    const summary = summarizeImport('memsvc', dryRun, [await importMemsvcFile(store.imports, tenant, file, dryRun)]);
    if (!dryRun) await adviseReindex(cli, store, tenant);
    return summary;
  });
}

/**
 * A file exported without `--include-vectors` (the default), or with vectors of another size,
 * brings memories that only full text finds until they are embedded: say how to embed them.
 */
async function adviseReindex(cli: CliContext, store: MemsvcStore, tenant: TenantId): Promise<void> {
  const row = await store.connection.db
    .selectFrom('memories')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('user_id', '=', tenant)
    .where('deleted_at', 'is', null)
    .where('embedding', 'is', null)
    .executeTakeFirst();
  const count = row?.count ?? 0;
  if (count > 0) {
    cli.stderr.write(
      `${count} of ${tenant}'s memories have no vector yet (full text finds them meanwhile): memsvc-reindex --user ${tenant} embeds them\n`,
    );
  }
}

async function importAgentFolder(
  cli: CliContext,
  options: ImportOptions,
  source: Exclude<ImportSource, 'memsvc'>,
  tenant: TenantId,
  dryRun: boolean,
): Promise<ImportSummary> {
  const secretsPolicy = parseSecretsPolicy(options.secretsPolicy, '--secrets-policy');
  const folder = await readImportFolder(options.path, source, undefined);
  cli.stderr.write(`read ${folder.files.length} ${source} file(s) under ${terminalText(folder.root)}\n`);
  // The engine a server runs, on the operator's database: imported sections are embedded and rule-checked like any write.
  return (dryRun ? withDryRunRuntime : withOperatorRuntime)(cli, APPLICATION_NAME, async ({ store, engine, clock }) => {
    cli.stderr.write(`${dryRun ? 'checking' : 'importing'} into ${tenant}…\n`);
    return importAgentFiles(
      { engine, ledger: store.importLedger, clock },
      { tenant, actor: CLI_IMPORT_ACTOR },
      {
        source,
        ...folder,
        wholeFolder: true,
        scope: options.scope ?? null,
        secretsPolicy,
        splitHeadings: options.splitHeadings ?? true,
        dryRun,
      },
    );
  });
}

function describeSummary(summary: ImportSummary): string[] {
  const lines = summary.files.map(describeFile);
  if (summary.abortedBySecrets) lines.push('secrets found with --secrets-policy fail: nothing was written');
  if (summary.files.length > 1) lines.push(`total: ${counts(summary.totals)}, ${summary.totals.failedFiles} file(s) failed`);
  return lines;
}

function describeFile(file: ImportFileSummary): string {
  const vectors = file.vectorsDropped > 0 ? `, ${file.vectorsDropped} vectors left for a reindex` : '';
  const head = file.error
    ? `${file.path}: FAILED [${file.error.code}] ${file.error.message} (${counts(file)})`
    : `${file.path}: ${counts(file)}${vectors}`;
  const details = (file.sections ?? [])
    .filter((section) => section.outcome === 'conflict' || section.outcome === 'removed')
    .map(
      (section) =>
        `  ${section.outcome} ${section.section}${section.memoryId ? ` (memory ${section.memoryId})` : ''}${section.reason ? `: ${section.reason}` : ''}`,
    );
  const secrets = (file.secrets ?? []).map((found) => `  secret in ${found.section}: ${found.patterns.join(', ')}`);
  // Paths, headings and messages come from the imported files: one line each, no escape sequence.
  const lines = [head, ...details, ...secrets, ...(file.warnings ?? []).map((warning) => `  warning: ${warning}`)];
  return lines.map(terminalText).join('\n');
}

function counts(totals: Omit<ImportFileSummary, 'path'>): string {
  const optional = (['updated', 'conflicts', 'removed', 'secretsFound'] as const)
    .filter((key) => totals[key] > 0)
    .map((key) => `${key === 'secretsFound' ? 'secrets found' : key} ${totals[key]}`);
  return [`parsed ${totals.parsed}`, `created ${totals.created}`, ...optional, `skipped ${totals.skipped}`, `failed ${totals.failed}`].join(
    ', ',
  );
}
