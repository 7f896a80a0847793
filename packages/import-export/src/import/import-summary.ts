import type { MemsvcErrorCode } from '@memsvc/core';

/** What happened to one section of an agent's memory file. */
export type SectionOutcome =
  | 'created'
  | 'updated'
  /** Unchanged since the last import. */
  | 'unchanged'
  /** An existing memory already holds this text; the ledger now points at it. */
  | 'duplicate'
  /** Dropped by the `skip` secrets policy. */
  | 'secret-skipped'
  /** Edited or deleted in memsvc since the last import: reported, not overwritten. */
  | 'conflict'
  /** In the ledger but no longer in the file (or the file is gone): reported, the memory is kept. */
  | 'removed';

/** One section's line in a file's detail. */
export interface SectionReport {
  readonly section: string;
  readonly outcome: SectionOutcome;
  readonly memoryId?: string;
  /** Why a conflict is one, in words. */
  readonly reason?: string;
}

/** Which secret patterns one section held (names only, never the values). */
export interface SecretsReport {
  readonly section: string;
  readonly patterns: readonly string[];
}

/** Why a file was refused; nothing of it was written. */
export interface ImportFileError {
  readonly code: MemsvcErrorCode;
  readonly message: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** What one file came to. A failed file wrote nothing; `error` says why. */
export interface ImportFileSummary {
  readonly path: string;
  /** Memories (JSONL lines, or sections of an agent's file) read; 0 when the file failed before they were known. */
  readonly parsed: number;
  readonly created: number;
  readonly updated: number;
  /** Left as they are: unchanged, already held (same id, or the same text), or dropped as secrets by `skip`. */
  readonly skipped: number;
  readonly conflicts: number;
  readonly removed: number;
  /** Sections in which the secrets scanner found something (whatever the policy did with them). */
  readonly secretsFound: number;
  /** Memories not written because the file failed. */
  readonly failed: number;
  /** Vectors left out because their size does not fit this server's vector space (JSONL). */
  readonly vectorsDropped: number;
  readonly error?: ImportFileError;
  readonly warnings?: readonly string[];
  /** Agent files: every section's outcome. */
  readonly sections?: readonly SectionReport[];
  readonly secrets?: readonly SecretsReport[];
}

/** A file summary with every count at zero, to spread the counts that apply over. */
export const EMPTY_FILE_COUNTS = Object.freeze({
  parsed: 0,
  created: 0,
  updated: 0,
  skipped: 0,
  conflicts: 0,
  removed: 0,
  secretsFound: 0,
  failed: 0,
  vectorsDropped: 0,
});

type CountKey = keyof typeof EMPTY_FILE_COUNTS;

/** The summary of a whole call: per file, and the totals. */
export interface ImportSummary {
  readonly source: string;
  readonly dryRun: boolean;
  readonly files: readonly ImportFileSummary[];
  readonly totals: { readonly [K in CountKey]: number } & { readonly failedFiles: number };
  /** Set when the `fail` secrets policy found a secret: nothing at all was written. */
  readonly abortedBySecrets?: boolean;
}

/** Adds the files' counts up. */
export function summarizeImport(
  source: string,
  dryRun: boolean,
  files: readonly ImportFileSummary[],
  options: { readonly abortedBySecrets?: boolean } = {},
): ImportSummary {
  const totals = { ...EMPTY_FILE_COUNTS } as Record<CountKey, number>;
  for (const file of files) for (const key of Object.keys(totals) as CountKey[]) totals[key] += file[key];
  return {
    source,
    dryRun,
    files,
    totals: { ...totals, failedFiles: files.filter((file) => file.error !== undefined).length },
    ...(options.abortedBySecrets ? { abortedBySecrets: true } : {}),
  };
}
