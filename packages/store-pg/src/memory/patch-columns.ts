import type { MemoryPatch } from '@memsvc/core';
import { vectorLiteral } from './memory-row.js';
import { hashContent } from './write-path.js';

/** The columns an update writes for a patch: only what it changes, the content's hash and the vector's bookkeeping with them. */
export function toColumns(patch: MemoryPatch, now: Date): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  if (patch.content !== undefined) {
    columns.content = patch.content;
    columns.content_hash = hashContent(patch.content);
  }
  if (patch.tags !== undefined) columns.tags = [...patch.tags];
  if (patch.metadata !== undefined) columns.metadata = JSON.stringify(patch.metadata);
  if (patch.importance !== undefined) columns.importance = patch.importance;
  if (patch.importanceScore !== undefined) columns.importance_score = patch.importanceScore;
  if (patch.pinned !== undefined) columns.pinned = patch.pinned;
  if (patch.tier !== undefined) columns.tier = patch.tier;
  if (patch.expiresAt !== undefined) columns.expires_at = patch.expiresAt;
  if (patch.embedding === null) Object.assign(columns, { embedding: null, embedding_model: null, embedded_at: null });
  else if (patch.embedding) {
    Object.assign(columns, { embedding: vectorLiteral(patch.embedding.vector), embedding_model: patch.embedding.model, embedded_at: now });
  }
  return columns;
}
