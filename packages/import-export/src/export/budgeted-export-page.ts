import type { AuditEntry, ExportedLink, ExportedMemory, ExportStore, TenantId } from '@memsvc/core';
import type { ExportPlan } from './export-request.js';

/** One memory of a page, with what the page read about it. */
export interface ExportedMemoryParts {
  readonly memory: ExportedMemory;
  /** Its outgoing links, in id order. */
  readonly links: readonly ExportedLink[];
  /** Its audit rows, oldest first; empty unless the plan reads them. */
  readonly audit: readonly AuditEntry[];
}

/** A page of rendered memories: one item per memory, in id order. */
export interface BudgetedPage<T> {
  readonly items: readonly T[];
  /** The cursor that resumes after the last item; undefined after the last page. */
  readonly nextCursor: string | undefined;
}

/**
 * Reads one page and renders its memories until `plan.maxBytes` would be passed (issue 17):
 * every export format pages the same way, so a page ends at `limit` memories or at the byte
 * budget, whichever comes first — but always holds at least one memory, so an export never
 * stalls — and the cursor resumes after the last memory rendered. `spentBytes` is what the
 * page already carries (the JSONL header).
 */
export async function readBudgetedPage<T>(
  store: ExportStore,
  tenant: TenantId,
  plan: ExportPlan,
  render: (parts: ExportedMemoryParts) => T,
  sizeOf: (item: T) => number,
  spentBytes = 0,
): Promise<BudgetedPage<T>> {
  const page = await store.exportPage(tenant, plan.query);
  const links = groupBy(page.links, (link: ExportedLink) => link.sourceMemoryId);
  const audit = groupBy(page.audit, (entry: AuditEntry) => entry.memoryId);
  const items: T[] = [];
  let bytes = spentBytes;
  for (const memory of page.memories) {
    const item = render({ memory, links: links.get(memory.id) ?? [], audit: audit.get(memory.id) ?? [] });
    const size = sizeOf(item);
    if (items.length > 0 && bytes + size > plan.maxBytes) {
      return { items, nextCursor: page.memories[items.length - 1]?.id };
    }
    items.push(item);
    bytes += size;
  }
  return { items, nextCursor: page.nextCursor };
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
