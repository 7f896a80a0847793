import type { ExportStore, TenantId } from '@memsvc/core';
import { MemsvcError } from '@memsvc/core';
import { readBudgetedPage } from './budgeted-export-page.js';
import { utf8Length } from './canonical-json.js';
import { type ExportPlan, type ExportRequest, planExport } from './export-request.js';
import { type MarkdownNote, markdownNote } from './markdown-note.js';

/** One page of a markdown export: a note per memory, ready to write or to return from a tool. */
export interface MarkdownExportPage {
  /** In id order; every note's path is unique across the whole export. */
  readonly notes: readonly MarkdownNote[];
  /** Memories on this page (one note each). */
  readonly count: number;
  /** Pass back as `cursor` (with the same filters) for the next page; undefined after the last. */
  readonly nextCursor: string | undefined;
}

/** The options that only the JSONL interchange carries: a note is for reading, not for restoring. */
const JSONL_ONLY = ['includeHistory', 'includeAudit', 'includeVectors'] as const;

/**
 * Checks a markdown export request: what planExport checks, and no history, audit or vectors —
 * refused rather than dropped, so nobody believes a set of notes holds them. INVALID_INPUT names
 * the field.
 */
export function planMarkdownExport(request: ExportRequest): ExportPlan {
  for (const field of JSONL_ONLY) {
    if (request[field] === true) {
      throw new MemsvcError('INVALID_INPUT', `${field} is only available with the jsonl format; markdown notes are for reading`, { field });
    }
  }
  return planExport(request);
}

/**
 * Reads one page of a tenant's memories as markdown notes (issue 17 item 2). Pages exactly as
 * the JSONL export does — same filters, cursor, limit and byte budget, the budget counted over
 * the notes' paths and contents — so a tool result stays a few megabytes however large the notes.
 */
export async function readMarkdownExportPage(store: ExportStore, tenant: TenantId, request: ExportRequest): Promise<MarkdownExportPage> {
  const plan = planMarkdownExport(request);
  const page = await readBudgetedPage(store, tenant, plan, markdownNote, (note) => utf8Length(note.path) + utf8Length(note.content));
  return { notes: page.items, count: page.items.length, nextCursor: page.nextCursor };
}
