import type { MemoryRecord } from '../domain/memory.js';
import { type ContextEntry, currentFirst, linkedMemoryIds, type ReplacementLink, replacementOf } from '../domain/replacement-order.js';
import { isMemsvcError } from '../errors/memsvc-error.js';
import type { CallContext } from './engine-parts.js';
import type { MemoryOperations } from './memory-operations.js';

/** Links read per memory: a memory contradicted more often than this is rare, and its oldest links are enough. */
const LINKS_PER_MEMORY = 20;
/** Memories looked up beyond the list, in all: bounds what one read can cost when many are marked. */
const MAX_LOOKUPS = 20;
/** How far a chain of replacements (Paris, then Berlin, then Munich) is followed outside the list. */
const MAX_ROUNDS = 3;

/** Which memories outside the list the reader may be shown (the list's own filters: scope, tags, tier, dates). */
export type Admit = (memory: MemoryRecord) => boolean;

/**
 * Which memories outside a list its reader may still be shown as the replacement of one in it:
 * those the list's own filters would have let in (a replacement in another scope stays out, and
 * is only named).
 */
export function admitFilters(filters: {
  readonly scope?: string | null | undefined;
  readonly tags?: readonly string[] | undefined;
  readonly tier?: MemoryRecord['tier'] | undefined;
  readonly createdFrom?: Date | undefined;
  readonly createdTo?: Date | undefined;
}): Admit {
  return (memory) =>
    (filters.scope === undefined || memory.scope === filters.scope) &&
    (filters.tier === undefined || memory.tier === filters.tier) &&
    (filters.tags ?? []).every((tag) => memory.tags.includes(tag)) &&
    (filters.createdFrom === undefined || memory.createdAt >= filters.createdFrom) &&
    (filters.createdTo === undefined || memory.createdAt <= filters.createdTo);
}

/**
 * Spec §3.3 as an agent reads it (issue 38): `memories` in their order, except that the memory
 * that replaced one of them comes right before it (taken from further down the list, or looked up
 * when the list lacks it and `admit` lets the reader see it), each labelled with what it replaced
 * or what replaced it. Reads only the links of contradicted memories and the memories they name,
 * within the caller's tenant; it counts no access and changes nothing.
 */
export async function currentFirstEntries(
  engine: MemoryOperations,
  context: CallContext,
  memories: readonly MemoryRecord[],
  admit: Admit = () => true,
): Promise<ContextEntry[]> {
  const live = new Map(memories.map((memory) => [memory.id, memory]));
  const linksOf = new Map<string, readonly ReplacementLink[]>();
  const missing = new Set<string>();
  let lookups = 0;
  let frontier: readonly MemoryRecord[] = memories;
  for (let round = 0; round < MAX_ROUNDS && frontier.length > 0; round++) {
    for (const memory of frontier) {
      // Only a contradicted memory can have a `contradicts` partner that is newer; a superseded one names its replacement.
      const links = memory.contradicted ? await engine.links(context, memory.id, LINKS_PER_MEMORY) : [];
      linksOf.set(memory.id, links);
    }
    const named = frontier.flatMap((memory) => [
      ...(memory.supersededBy ? [memory.supersededBy] : []),
      ...(memory.replacedBy ? [memory.replacedBy] : []),
      ...linkedMemoryIds(memory.id, linksOf.get(memory.id) ?? []),
    ]);
    const found: MemoryRecord[] = [];
    for (const id of new Set(named)) {
      if (live.has(id) || missing.has(id) || lookups >= MAX_LOOKUPS) continue;
      lookups++;
      const memory = await readLive(engine, context, id);
      if (memory) {
        live.set(id, memory);
        found.push(memory);
      } else missing.add(id);
    }
    // Only a memory that replaced one already known can join the list; its own replacement is the next round's.
    const replacing = replacementsAmong(live, linksOf);
    frontier = found.filter((memory) => admit(memory) && isReplacement(memory.id, replacing));
  }
  const replacedBy = replacementsAmong(live, linksOf);
  const listed = new Set(memories.map((memory) => memory.id));
  const replacements = [...live.values()].filter(
    (memory) => !listed.has(memory.id) && admit(memory) && isReplacement(memory.id, replacedBy),
  );
  return currentFirst(memories, replacedBy, replacements);
}

function replacementsAmong(
  live: ReadonlyMap<string, MemoryRecord>,
  linksOf: ReadonlyMap<string, readonly ReplacementLink[]>,
): Map<string, string> {
  const replacedBy = new Map<string, string>();
  for (const memory of live.values()) {
    const newer = replacementOf(memory, linksOf.get(memory.id) ?? [], live);
    if (newer !== undefined) replacedBy.set(memory.id, newer);
  }
  return replacedBy;
}

function isReplacement(id: string, replacedBy: ReadonlyMap<string, string>): boolean {
  for (const newer of replacedBy.values()) if (newer === id) return true;
  return false;
}

async function readLive(engine: MemoryOperations, context: CallContext, id: string): Promise<MemoryRecord | undefined> {
  try {
    return await engine.getUncounted(context, id);
  } catch (error) {
    if (isMemsvcError(error) && error.code === 'NOT_FOUND') return undefined;
    throw error;
  }
}
