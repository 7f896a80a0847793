import type { Passage } from './matching-passage.js';
import type { MemoryRecord } from './memory.js';

/**
 * What replaced what, as memsvc already records it (spec §3.2 rule 2): a superseded memory names
 * its replacement in `supersededBy`; `supersedes` / `superseded-by` links say the same from either
 * end; and of two memories linked `contradicts`, the one said later is taken as the current one.
 * Any rule that marks an older memory through these markers and links is shown the same way.
 */

/** A link of one memory, as far as the order needs it (a MemoryLinkRecord fits). */
export interface ReplacementLink {
  readonly sourceMemoryId: string;
  readonly targetMemoryId: string | null;
  readonly rel: string;
}

/** A memory in the order an agent reads it, with what it replaced and what replaced it. */
export interface ContextEntry {
  readonly memory: MemoryRecord;
  /** The live memory that replaced this one: this one is outdated. */
  readonly replacedBy?: string | undefined;
  /** The memories of the same list this one replaced. */
  readonly replaces?: readonly string[] | undefined;
  /** For a long memory found by a query: the part that matched, shown instead of the whole (matching-passage.ts). */
  readonly passage?: Passage | undefined;
}

/** The memories a memory's links point to, the other end of each link naming it. */
export function linkedMemoryIds(memoryId: string, links: readonly ReplacementLink[]): string[] {
  return links.flatMap((link) => {
    const other = link.sourceMemoryId === memoryId ? link.targetMemoryId : link.sourceMemoryId;
    return other === null || other === memoryId ? [] : [other];
  });
}

/**
 * R-TIME-REPLACED: the live memory that replaced `memory`, or undefined. `live` holds the memories
 * known to exist (deleted and expired ones are absent): a replacement that is gone replaces
 * nothing. Among several, the one said last wins.
 */
export function replacementOf(
  memory: MemoryRecord,
  links: readonly ReplacementLink[],
  live: ReadonlyMap<string, Pick<MemoryRecord, 'id' | 'createdAt'>>,
): string | undefined {
  // Hidden behind its replacement (`supersededBy`), or marked as changed by a newer fact (`replacedBy`).
  const candidates: string[] = [memory.supersededBy, memory.replacedBy].filter((id): id is string => typeof id === 'string');
  for (const link of links) {
    const outgoing = link.sourceMemoryId === memory.id;
    const other = outgoing ? link.targetMemoryId : link.sourceMemoryId;
    if (other === null || other === memory.id) continue;
    const said = (outgoing && link.rel === 'superseded-by') || (!outgoing && link.rel === 'supersedes');
    const later = link.rel === 'contradicts' && (live.get(other)?.createdAt.getTime() ?? 0) > memory.createdAt.getTime();
    if (said || later) candidates.push(other);
  }
  const present = candidates.map((id) => live.get(id)).filter((found) => found !== undefined);
  present.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  return present[0]?.id;
}

/**
 * R-TIME-CURRENT-FIRST: the memories in their given order (rank, recency, importance), except
 * that a memory that replaced another comes before it — moved up from further down the list, or
 * taken from `replacements` (live replacements found outside the list). A chain (Paris, then
 * Berlin, then Munich) reads newest first; a cycle of links cannot loop.
 */
export function currentFirst(
  memories: readonly MemoryRecord[],
  replacedBy: ReadonlyMap<string, string>,
  replacements: readonly MemoryRecord[] = [],
): ContextEntry[] {
  const byId = new Map([...replacements, ...memories].map((memory) => [memory.id, memory]));
  const placed: MemoryRecord[] = [];
  const seen = new Set<string>();
  const place = (memory: MemoryRecord, path: ReadonlySet<string>): void => {
    if (seen.has(memory.id)) return;
    const newer = byId.get(replacedBy.get(memory.id) ?? '');
    if (newer && !path.has(newer.id)) place(newer, new Set([...path, memory.id]));
    if (seen.has(memory.id)) return;
    seen.add(memory.id);
    placed.push(memory);
  };
  for (const memory of memories) place(memory, new Set());
  const replaces = new Map<string, string[]>();
  for (const memory of placed) {
    const newer = replacedBy.get(memory.id);
    if (newer !== undefined && seen.has(newer)) replaces.set(newer, [...(replaces.get(newer) ?? []), memory.id]);
  }
  return placed.map((memory) => {
    const newer = replacedBy.get(memory.id);
    return {
      memory,
      ...(newer !== undefined ? { replacedBy: newer } : {}),
      ...(replaces.has(memory.id) ? { replaces: replaces.get(memory.id) } : {}),
    };
  });
}
