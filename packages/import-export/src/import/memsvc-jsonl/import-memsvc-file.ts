import type { ImportStore, TenantId } from '@memsvc/core';
import { isMemsvcError } from '@memsvc/core';
import { EMPTY_FILE_COUNTS, type ImportFileSummary } from '../import-summary.js';
import { parseMemsvcExport } from './parse-memsvc-export.js';

/** One file given to an import: its name (as the caller gave it) and its text. */
export interface ImportFile {
  readonly path: string;
  readonly content: string;
}

/**
 * Imports one `memsvc-export` file into `tenant` (issue 17): parse and check every line, then
 * write them all in one transaction. A bad line or a CONFLICT fails this file alone (reported in
 * its summary, nothing written), so the other files of a call still import; anything else is
 * not the file's fault and is thrown.
 */
export async function importMemsvcFile(
  store: ImportStore,
  tenant: TenantId,
  file: ImportFile,
  dryRun: boolean,
): Promise<ImportFileSummary> {
  let parsed = 0;
  try {
    const { memories } = parseMemsvcExport(file.content);
    parsed = memories.length;
    const result = await store.importMemories(tenant, memories, { dryRun });
    return { ...EMPTY_FILE_COUNTS, path: file.path, parsed, ...result };
  } catch (error) {
    if (!isMemsvcError(error, 'INVALID_INPUT') && !isMemsvcError(error, 'CONFLICT')) throw error;
    return {
      ...EMPTY_FILE_COUNTS,
      path: file.path,
      parsed,
      failed: parsed || memoryLineCount(file.content),
      error: { code: error.code, message: error.message, data: error.data },
    };
  }
}

/** The lines after the header: the memories a file that failed to parse would have held. */
function memoryLineCount(content: string): number {
  let lines = 0;
  for (const line of content.split('\n')) if (line.trim() !== '') lines += 1;
  return Math.max(0, lines - 1);
}
