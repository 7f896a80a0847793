import type { TenantId } from '../../domain/tenant.js';
import { isMemsvcError, type MemsvcErrorCode } from '../../errors/memsvc-error.js';
import type { ImportStore } from '../../ports/import-store.js';
import { parseMemsvcExport } from './parse-memsvc-export.js';

/** One file given to an import: its name (as the caller gave it) and its text. */
export interface ImportFile {
  readonly path: string;
  readonly content: string;
}

/** What one file came to. A failed file wrote nothing; `error` says why. */
export interface ImportFileSummary {
  readonly path: string;
  /** Memory lines read (0 when the file failed before its lines were checked). */
  readonly parsed: number;
  readonly created: number;
  readonly skipped: number;
  /** Memories not written because the file failed: all of its memory lines. */
  readonly failed: number;
  /** Vectors left out because their size does not fit this server's vector space. */
  readonly vectorsDropped: number;
  readonly error?: { readonly code: MemsvcErrorCode; readonly message: string; readonly data: Readonly<Record<string, unknown>> };
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
    return { path: file.path, parsed, ...result, failed: 0 };
  } catch (error) {
    if (!isMemsvcError(error, 'INVALID_INPUT') && !isMemsvcError(error, 'CONFLICT')) throw error;
    return {
      path: file.path,
      parsed,
      created: 0,
      skipped: 0,
      failed: parsed || memoryLineCount(file.content),
      vectorsDropped: 0,
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

/** The summary of a whole call: per file, and the totals. */
export interface ImportSummary {
  readonly source: string;
  readonly dryRun: boolean;
  readonly files: readonly ImportFileSummary[];
  readonly totals: {
    readonly parsed: number;
    readonly created: number;
    readonly skipped: number;
    readonly failed: number;
    readonly failedFiles: number;
  };
}

/** Adds the files' counts up. */
export function summarizeImport(source: string, dryRun: boolean, files: readonly ImportFileSummary[]): ImportSummary {
  const sum = (key: 'parsed' | 'created' | 'skipped' | 'failed') => files.reduce((total, file) => total + file[key], 0);
  return {
    source,
    dryRun,
    files,
    totals: {
      parsed: sum('parsed'),
      created: sum('created'),
      skipped: sum('skipped'),
      failed: sum('failed'),
      failedFiles: files.filter((file) => file.error !== undefined).length,
    },
  };
}
