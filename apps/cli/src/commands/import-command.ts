import { checkWiredImportSource, type ImportFileSummary, importMemsvcFile, summarizeImport } from '@memsvc/core';
import { readImportFile } from '@memsvc/runtime';
import { parseUserFlag } from '../operator-flags.js';
import { withOperatorStore } from '../operator-store.js';
import { EXIT_FAILURE } from '../run-command.js';

const APPLICATION_NAME = 'memsvc-import';

/** The options of `memsvc import`, as commander hands them over. */
export interface ImportOptions {
  readonly source: string;
  readonly path: string;
  readonly user: string;
  readonly dryRun?: boolean;
  readonly json?: boolean;
}

/**
 * `memsvc import`: one file into one tenant (issue 17), the `import_agent_memory` tool's work
 * from the command line. The flags and the file are checked before the
 * database is opened; the file is imported whole or not at all. Progress on stderr, the summary
 * on stdout; a file that failed exits 1. The operator's own files are read: no import root.
 */
export async function importCommand(options: ImportOptions): Promise<void> {
  const source = checkWiredImportSource(options.source, '--source');
  const tenant = parseUserFlag(options.user);
  const dryRun = options.dryRun ?? false;
  const file = await readImportFile(options.path, undefined);
  process.stderr.write(`read ${file.path}\n`);

  const summary = await withOperatorStore(APPLICATION_NAME, async (store) => {
    process.stderr.write(`${dryRun ? 'checking' : 'importing'} into ${tenant}…\n`);
    return summarizeImport(source, dryRun, [await importMemsvcFile(store.imports, tenant, file, dryRun)]);
  });
  if (options.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else for (const line of summary.files.map(describeFile)) process.stdout.write(`${line}\n`);
  if (summary.totals.failedFiles > 0) process.exitCode = EXIT_FAILURE;
}

function describeFile(file: ImportFileSummary): string {
  const counts = `parsed ${file.parsed}, created ${file.created}, skipped ${file.skipped}, failed ${file.failed}`;
  const vectors = file.vectorsDropped > 0 ? `, ${file.vectorsDropped} vectors left for a reindex` : '';
  return file.error ? `${file.path}: FAILED [${file.error.code}] ${file.error.message} (${counts})` : `${file.path}: ${counts}${vectors}`;
}
