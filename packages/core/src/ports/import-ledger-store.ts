import type { TenantId } from '../domain/tenant.js';

/**
 * Where an imported section came from: the ledger's key within a tenant. `root` names the
 * imported folder (its real path for a server-side import, the caller's label for inline files),
 * so two projects' `CLAUDE.md` are two files; `file` is relative to it; `section` is the parser's
 * stable anchor.
 */
export interface ImportLedgerKey {
  readonly source: string;
  readonly root: string;
  readonly file: string;
  readonly section: string;
}

/** What the last import of one section wrote. */
export interface ImportLedgerEntry extends ImportLedgerKey {
  /** The memory the section maps to (created by the import, or the existing one it duplicated). */
  readonly memoryId: string;
  /** The fingerprint of what was written (content, tags, scope, metadata): unchanged means skip. */
  readonly fingerprint: string;
  /** The memory's version right after the import wrote it: a different version means someone edited it since. */
  readonly memoryVersion: number;
  readonly importedAt: Date;
}

/**
 * The import ledger (issue 17): one row per (tenant, source, root, file, section), so a re-import
 * skips what did not change, updates what did, and reports what was edited in memsvc meanwhile
 * or removed from the files. Every method is scoped to its tenant.
 */
export interface ImportLedgerStore {
  /** Every entry of one imported folder, in no particular order. */
  entries(tenant: TenantId, source: string, root: string): Promise<readonly ImportLedgerEntry[]>;
  /** Inserts or replaces the entry of its key. */
  record(tenant: TenantId, entry: ImportLedgerEntry): Promise<void>;
}
