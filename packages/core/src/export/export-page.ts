import type { AuditEntry } from '../domain/memory.js';
import type { TenantId } from '../domain/tenant.js';
import type { ExportedLink, ExportStore } from '../ports/export-store.js';
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
  const page = await store.exportPage(tenant, plan.query);
  const links = groupBy(page.links, (link: ExportedLink) => link.sourceMemoryId);
  const audit = groupBy(page.audit, (entry: AuditEntry) => entry.memoryId);

  const header = plan.query.after === undefined ? exportHeader(tenant, plan.query, plan.includes, now) : undefined;
  const lines: string[] = header ? [JSON.stringify(header)] : [];
  let bytes = lines.reduce((sum, line) => sum + utf8Length(line) + 1, 0);
  let count = 0;
  for (const memory of page.memories) {
    const line = memoryLine({ memory, links: links.get(memory.id) ?? [], audit: audit.get(memory.id) ?? [], includes: plan.includes });
    const size = utf8Length(line) + 1;
    if (count > 0 && bytes + size > plan.maxBytes) {
      return { header, lines, count, nextCursor: page.memories[count - 1]?.id };
    }
    lines.push(line);
    bytes += size;
    count += 1;
  }
  return { header, lines, count, nextCursor: page.nextCursor };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const id = key(item);
    const group = groups.get(id);
    if (group) group.push(item);
    else groups.set(id, [item]);
  }
  return groups;
}
