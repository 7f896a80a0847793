import { detectFactChange } from './fact-change.js';
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
 * nothing. Of two memories linked `contradicts`, the later replaces the earlier only when it
 * states a change of the same fact (detectFactChange): the similarity band also links look-alikes
 * ("Dana lives in Lisbon" / "Ivo lives in Toronto"), and neither of those is outdated. Among
 * several, the one said last wins.
 */
export function replacementOf(
  memory: MemoryRecord,
  links: readonly ReplacementLink[],
  live: ReadonlyMap<string, Pick<MemoryRecord, 'id' | 'createdAt' | 'content'>>,
): string | undefined {
  // Hidden behind its replacement (`supersededBy`), or marked as changed by a newer fact (`replacedBy`).
  const candidates: string[] = [memory.supersededBy, memory.replacedBy].filter((id): id is string => typeof id === 'string');
  for (const link of links) {
    const outgoing = link.sourceMemoryId === memory.id;
    const other = outgoing ? link.targetMemoryId : link.sourceMemoryId;
    if (other === null || other === memory.id) continue;
    const said = (outgoing && link.rel === 'superseded-by') || (!outgoing && link.rel === 'supersedes');
    const partner = link.rel === 'contradicts' ? live.get(other) : undefined;
    const later =
      partner !== undefined &&
      partner.createdAt.getTime() > memory.createdAt.getTime() &&
      detectFactChange(memory.content, partner.content) !== undefined;
    if (said || later) candidates.push(other);
  }
  const present = candidates.map((id) => live.get(id)).filter((found) => found !== undefined);
  present.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  return present[0]?.id;
}

/**
 * What replaced what among `live` (replacementOf for each), and for a memory nothing recorded as
 * replaced, the newer memory `detected` at read time says changed its fact (detectChangedFacts).
 */
export function replacementsAmong(
  live: ReadonlyMap<string, MemoryRecord>,
  linksOf: ReadonlyMap<string, readonly ReplacementLink[]>,
  detected: ReadonlyMap<string, string> = new Map(),
): Map<string, string> {
  const replacedBy = new Map<string, string>();
  for (const memory of live.values()) {
    const newer = replacementOf(memory, linksOf.get(memory.id) ?? [], live);
    const found = newer ?? detected.get(memory.id);
    if (found !== undefined && live.has(found)) replacedBy.set(memory.id, found);
  }
  return replacedBy;
}

/** A memory of a list with its score (rank order; 0 where a list has none). */
export interface ScoredMemory {
  readonly memory: MemoryRecord;
  readonly score: number;
}

/** A memory as an agent reads it: its entry, with a score at least that of any memory it replaced. */
export interface OrderedEntry extends ContextEntry {
  readonly score: number;
}

/**
 * R-TIME-CURRENT-FIRST, decided here once for recall, the context tools and reflect: `items` in
 * their order (rank, recency, importance), except that the memory that replaced one comes right
 * before it — moved up from further down, or taken from `known` when `shown` lets the reader see
 * it — with at least the score of what it replaced (it answers what that one answered). A chain
 * (Paris, then Berlin, then Munich) reads newest first; a replacement the reader may not see is
 * passed over for the one that replaced it, and only named when none can be shown; a cycle of
 * links cannot loop. Each entry is labelled with what replaced it and what it replaced. A memory
 * nothing replaced that `ahead` names a listed newer one for (R-FACT-NEWER-FIRST,
 * newer-said-first.ts) has that one right before it the same way, unlabelled: read first, not a
 * replacement.
 */
export function readingOrder(
  items: readonly ScoredMemory[],
  replacedBy: ReadonlyMap<string, string>,
  known: ReadonlyMap<string, MemoryRecord> = new Map(),
  shown: (memory: MemoryRecord) => boolean = () => true,
  ahead: ReadonlyMap<string, string> = new Map(),
): OrderedEntry[] {
  const listed = new Map(items.map((item) => [item.memory.id, item]));
  // The replacement a reader sees: the first of the chain that is listed or may be shown.
  const visibleReplacement = (id: string): MemoryRecord | undefined => {
    const passed = new Set([id]);
    for (let next = replacedBy.get(id); next !== undefined && !passed.has(next); next = replacedBy.get(next)) {
      passed.add(next);
      const memory = listed.get(next)?.memory ?? known.get(next);
      if (memory !== undefined && (listed.has(next) || shown(memory))) return memory;
    }
    return undefined;
  };
  const placed: { memory: MemoryRecord; score: number }[] = [];
  const seen = new Set<string>();
  const place = (memory: MemoryRecord, score: number, path: ReadonlySet<string>): void => {
    if (seen.has(memory.id)) return;
    const newer = visibleReplacement(memory.id) ?? listed.get(ahead.get(memory.id) ?? '')?.memory;
    if (newer && !path.has(newer.id)) place(newer, score, new Set([...path, memory.id]));
    if (seen.has(memory.id)) return;
    seen.add(memory.id);
    placed.push({ memory, score: Math.max(listed.get(memory.id)?.score ?? 0, score) });
  };
  for (const item of items) place(item.memory, item.score, new Set());
  const labelOf = new Map<string, string>();
  const replaces = new Map<string, string[]>();
  for (const { memory } of placed) {
    const newer = visibleReplacement(memory.id);
    if (newer !== undefined && seen.has(newer.id)) {
      labelOf.set(memory.id, newer.id);
      replaces.set(newer.id, [...(replaces.get(newer.id) ?? []), memory.id]);
    } else if (replacedBy.has(memory.id)) labelOf.set(memory.id, replacedBy.get(memory.id) as string);
  }
  return placed.map(({ memory, score }) => ({
    memory,
    score,
    ...(labelOf.has(memory.id) ? { replacedBy: labelOf.get(memory.id) } : {}),
    ...(replaces.has(memory.id) ? { replaces: replaces.get(memory.id) } : {}),
  }));
}
