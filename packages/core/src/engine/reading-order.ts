import type { MemoryRecord } from '../domain/memory.js';
import { admitsMemory, type RecallFilters } from '../domain/recall-filters.js';
import {
  linkedMemoryIds,
  type OrderedEntry,
  type ReplacementLink,
  readingOrder,
  replacementsAmong,
  type ScoredMemory,
} from '../domain/replacement-order.js';
import type { TenantId } from '../domain/tenant.js';
import type { MemoryStore } from '../ports/memory-store.js';

/** Links read per memory: a memory contradicted more often than this is rare, and its oldest links are enough. */
const LINKS_PER_MEMORY = 20;
/** Memories looked up beyond the list, in all: bounds what one read can cost when many are marked. */
const MAX_LOOKUPS = 20;
/** How far a chain of replacements (Paris, then Berlin, then Munich) is followed outside the list. */
const MAX_ROUNDS = 3;

/**
 * Where a read looks: a tenant — the reader's own, or the owner of a space shared with it — under
 * the filters that bound what it may show there (a shared space's filters name its scope).
 */
export interface ReadSource {
  readonly tenant: TenantId;
  readonly filters: RecallFilters;
}

/**
 * A list in the order an agent reads it (readingOrder): the replacements its memories name are
 * read in one batch per round and tenant — the links of its contradicted memories, then the
 * memories named — following chains up to MAX_ROUNDS deep. A memory outside the list is shown
 * only when its source's filters admit it (admitsMemory, the one filter rule); one of another
 * owner is read only inside a space of `sources`. `detected` adds read-time fact changes (older
 * id → newer id among `items`); `ahead` the newer memories of `items` read before an older one
 * without replacing it (newerSaidFirst). Reads only; counts no access.
 */
export async function inReadingOrder(
  store: MemoryStore,
  reader: TenantId,
  sources: readonly ReadSource[],
  items: readonly ScoredMemory[],
  now: Date,
  detected?: ReadonlyMap<string, string>,
  ahead?: ReadonlyMap<string, string>,
): Promise<OrderedEntry[]> {
  const graph = await readReplacementGraph(
    store,
    reader,
    sources,
    items.map((item) => item.memory),
  );
  const replacedBy = replacementsAmong(graph.live, graph.linksOf, detected);
  const shown = (memory: MemoryRecord) =>
    sources.some((source) => source.tenant === memory.userId && admitsMemory(memory, source.filters, now));
  return readingOrder(items, replacedBy, graph.live, shown, ahead);
}

/** Whether a memory may name a replacement to read (a marker, or links to look at). */
export function namesReplacement(memory: MemoryRecord): boolean {
  return memory.contradicted || memory.supersededBy !== null || typeof memory.replacedBy === 'string';
}

interface ReplacementGraph {
  readonly live: Map<string, MemoryRecord>;
  readonly linksOf: Map<string, readonly ReplacementLink[]>;
}

async function readReplacementGraph(
  store: MemoryStore,
  reader: TenantId,
  sources: readonly ReadSource[],
  memories: readonly MemoryRecord[],
): Promise<ReplacementGraph> {
  const live = new Map(memories.map((memory) => [memory.id, memory]));
  const linksOf = new Map<string, readonly ReplacementLink[]>();
  const missing = new Set<string>();
  const tenantOf = (memory: MemoryRecord) => sources.find((source) => source.tenant === memory.userId)?.tenant;
  // The reader's own memories are all its to read; another owner's only inside a space shared with it.
  const readable = (memory: MemoryRecord) =>
    memory.userId === reader || sources.some((source) => source.tenant === memory.userId && source.filters.scope === memory.scope);
  let lookups = 0;
  let frontier: readonly MemoryRecord[] = memories;
  for (let round = 0; round < MAX_ROUNDS && frontier.length > 0; round++) {
    // Only a contradicted memory can have a `contradicts` partner that is newer; a superseded one names its replacement.
    const contradicted = group(frontier.filter((memory) => memory.contradicted).map((memory) => [tenantOf(memory), memory.id]));
    for (const links of await Promise.all([...contradicted].map(([tenant, ids]) => store.linksOf(tenant, ids, LINKS_PER_MEMORY)))) {
      for (const [id, list] of links) linksOf.set(id, list);
    }
    const wanted = new Map<string, TenantId | undefined>();
    for (const memory of frontier) {
      const named = [memory.supersededBy, memory.replacedBy, ...linkedMemoryIds(memory.id, linksOf.get(memory.id) ?? [])];
      for (const id of named) {
        if (typeof id !== 'string' || live.has(id) || missing.has(id) || wanted.has(id) || lookups >= MAX_LOOKUPS) continue;
        lookups++;
        wanted.set(id, tenantOf(memory));
      }
    }
    const reads = group([...wanted].map(([id, tenant]) => [tenant, id]));
    const found = (await Promise.all([...reads].map(([tenant, ids]) => store.findLiveByIds(tenant, ids)))).flat().filter(readable);
    for (const memory of found) live.set(memory.id, memory);
    for (const id of wanted.keys()) if (!live.has(id)) missing.add(id);
    // Only a memory that replaced one already known carries the chain on; its own replacement is the next round's.
    const replacing = new Set(replacementsAmong(live, linksOf).values());
    frontier = found.filter((memory) => replacing.has(memory.id));
  }
  return { live, linksOf };
}

/** Ids grouped by the tenant they are read in; those of no known tenant are not read. */
function group(pairs: readonly (readonly [TenantId | undefined, string])[]): Map<TenantId, string[]> {
  const byTenant = new Map<TenantId, string[]>();
  for (const [tenant, id] of pairs) if (tenant !== undefined) byTenant.set(tenant, [...(byTenant.get(tenant) ?? []), id]);
  return byTenant;
}
