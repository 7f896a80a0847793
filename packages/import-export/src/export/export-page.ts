import type { ExportStore, TenantId } from '@memsvc/core';
import { readBudgetedPage } from './budgeted-export-page.js';
import { utf8Length } from './canonical-json.js';
import { type ExportHeader, exportHeader, memoryLine } from './export-format.js';
import { type ExportRequest, planExport } from './export-request.js';

/** One page of a JSONL export, ready to write or to return from a tool. */
export interface ExportLines {
  /** The header; only on the first page (no cursor). */
  readonly header: ExportHeader | undefined;
  /** The file's lines in order, without newlines; the first page's first line is the header. */
  readonly lines: readonly string[];
  /** Memories on this page. */
  readonly count: number;
  /** Pass back as `cursor` (with the same filters) for the next page; undefined after the last. */
  readonly nextCursor: string | undefined;
}

/**
 * Reads one page of a tenant's export and serialises it (issue 17). A page ends at `limit`
 * memories or when its lines would pass the byte budget, whichever comes first — but always
 * holds at least one memory, so an export never stalls — and the cursor resumes after the last
 * memory written. Concatenating the lines of every page gives the whole file.
 */
export async function readExportPage(store: ExportStore, tenant: TenantId, request: ExportRequest, now: Date): Promise<ExportLines> {
  const plan = planExport(request);
  const header = plan.query.after === undefined ? exportHeader(tenant, plan.query, plan.includes, now) : undefined;
  const headerLines = header ? [JSON.stringify(header)] : [];
  const page = await readBudgetedPage(
    store,
    tenant,
    plan,
    (parts) => memoryLine({ ...parts, includes: plan.includes }),
    lineBytes,
    headerLines.reduce((sum, line) => sum + lineBytes(line), 0),
  );
  return { header, lines: [...headerLines, ...page.items], count: page.items.length, nextCursor: page.nextCursor };
}

/** A line's size in the file: its UTF-8 bytes and the newline after it. */
function lineBytes(line: string): number {
  return utf8Length(line) + 1;
}
