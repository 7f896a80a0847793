import type { AuditEntry, MemoryRecord, RelatedMemory } from '@memsvc/core';

/**
 * A memory as tools return it: plain JSON with ISO dates, the tier both as `tier` and under the
 * earlier implementation's `type` name, and never the vector itself.
 */
export function memoryJson(memory: MemoryRecord) {
  return {
    id: memory.id,
    userId: memory.userId,
    type: memory.tier === 'stm' ? ('short-term' as const) : ('long-term' as const),
    tier: memory.tier,
    scope: memory.scope,
    content: memory.content,
    tags: [...memory.tags],
    metadata: memory.metadata,
    importance: memory.importance,
    importanceScore: memory.importanceScore,
    pinned: memory.pinned,
    stale: memory.stale,
    contradicted: memory.contradicted,
    supersededBy: memory.supersededBy,
    replacedBy: memory.replacedBy ?? null,
    accessCount: memory.accessCount,
    lastAccessedAt: memory.lastAccessedAt?.toISOString() ?? null,
    expiresAt: memory.expiresAt?.toISOString() ?? null,
    version: memory.version,
    hasEmbedding: memory.hasEmbedding,
    embeddingModel: memory.embeddingModel,
    createdAt: memory.createdAt.toISOString(),
    updatedAt: memory.updatedAt.toISOString(),
    deletedAt: memory.deletedAt?.toISOString() ?? null,
  };
}

export type MemoryJson = ReturnType<typeof memoryJson>;

/**
 * The live memories a write may update or contradict, as `remember` and `create_memory` return
 * them (`related`): id, content, when it was said, and why. Content is what `memories:read`
 * guards, so content-visibility.ts leaves the field out for callers without it.
 */
export function relatedJson(related: readonly RelatedMemory[]) {
  return related.map((memory) => ({
    id: memory.id,
    content: memory.content,
    createdAt: memory.createdAt.toISOString(),
    why: memory.why,
    reason: memory.reason,
    ...(memory.replacedValues ? { replacedValues: [...memory.replacedValues] } : {}),
  }));
}

/** An audit entry as tools return it. */
export function auditJson(entry: AuditEntry) {
  return {
    id: entry.id,
    action: entry.action,
    actor: entry.actor,
    version: entry.version,
    before: entry.before,
    after: entry.after,
    createdAt: entry.createdAt.toISOString(),
  };
}
