import type { CreateResult, MemoryRecord } from '@memsvc/core';
import { relatedJson } from './memory-json.js';

/**
 * A memory as a write tool returns it (create_memory, remember, update_memory, promote_memory,
 * restore_memory, reembed_memory): what the agent needs to act on next, nothing null and nothing
 * internal (docs/tools.md#what-a-write-returns). The agent just sent the text, so it is not sent
 * back unless the memory now says something else; importance, metadata, tags, access counts,
 * embedding and dates are one `get_memory` away.
 *
 * | field | when |
 * | --- | --- |
 * | `id`, `version` | always: `version` is the next `update_memory`'s `expectedVersion` |
 * | `content` | `withContent`: the text is not what the caller wrote (a near-duplicate it collapsed into, a restored version) |
 * | `type`, `expiresAt` | a short-term memory: `short-term` and when it expires; a memory without `type` is long-term |
 * | `contradicted`, `supersededBy`, `replacedBy` | the marker is set |
 */
export function writtenMemoryJson(memory: MemoryRecord, options: { readonly withContent?: boolean } = {}) {
  return {
    id: memory.id,
    version: memory.version,
    ...(options.withContent ? { content: memory.content } : {}),
    ...(memory.tier === 'stm' ? { type: 'short-term' as const, expiresAt: memory.expiresAt?.toISOString() } : {}),
    ...(memory.contradicted ? { contradicted: true } : {}),
    ...(memory.supersededBy !== null ? { supersededBy: memory.supersededBy } : {}),
    ...(memory.replacedBy ? { replacedBy: memory.replacedBy } : {}),
  };
}

/** The lists of a write's result, each only when it names something: an absent list is an empty one. */
export function nonEmpty<K extends string, T>(key: K, list: readonly T[]): { [P in K]?: T[] } {
  return (list.length > 0 ? { [key]: [...list] } : {}) as { [P in K]?: T[] };
}

/**
 * What create_memory and remember say a write did: the memory (with its text when it collapsed
 * into a near-duplicate that says it differently), the decision, and the marks that apply —
 * `duplicate`, `contradictions`, `related`, `superseded`, each only when there is one.
 */
export function writeOutcomeJson(result: CreateResult) {
  const collapsedInto = result.duplicate !== undefined && !result.duplicate.exact;
  return {
    outcome: result.outcome,
    wasDeduped: result.outcome === 'duplicate',
    memory: writtenMemoryJson(result.memory, { withContent: collapsedInto }),
    ...(result.duplicate ? { duplicate: result.duplicate } : {}),
    ...nonEmpty('contradictions', result.contradictions),
    ...nonEmpty('related', relatedJson(result.related)),
    ...nonEmpty(
      'superseded',
      result.superseded.map(({ memoryId, version }) => ({ memoryId, version })),
    ),
  };
}
