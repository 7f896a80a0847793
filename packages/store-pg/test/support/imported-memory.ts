import type { ImportedMemory } from '@memsvc/core';

/**
 * A memory as an import file carries it: live, long-term, unscoped, no links, audit or vector,
 * created and updated `at`. Tests override what they are about.
 */
export function importedMemory(
  fields: Pick<ImportedMemory, 'id' | 'content'> & Partial<ImportedMemory> & { readonly at: Date },
): ImportedMemory {
  const { at, ...rest } = fields;
  return {
    tier: 'ltm',
    scope: null,
    searchContext: null,
    tags: [],
    metadata: {},
    importance: null,
    importanceScore: 0.5,
    pinned: false,
    stale: false,
    contradicted: false,
    supersededBy: null,
    replacedBy: null,
    accessCount: 0,
    lastAccessedAt: null,
    expiresAt: null,
    deletedAt: null,
    version: 1,
    embeddingModel: null,
    createdAt: at,
    updatedAt: at,
    links: [],
    audit: [],
    embedding: null,
    ...rest,
  };
}
