import { contentFingerprintText } from '../domain/content-fingerprint.js';
import type { JsonObject, MemoryPatch, MemoryRecord, NewMemory } from '../domain/memory.js';
import type { TenantId } from '../domain/tenant.js';
import { toStoredVector } from './cosine-similarity.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A memory as the in-memory store holds it: the record's fields (mutable, the store's own copy)
 * and what no caller reads back — the vector, the search context and the content fingerprint.
 */
export interface StoredMemory extends Mutable<Omit<MemoryRecord, 'hasEmbedding'>> {
  /** contentFingerprintText(content): what exact-duplicate collapse compares. */
  contentKey: string;
  vector: readonly number[] | null;
  searchContext: string | null;
}

/**
 * The record a caller gets: a copy, so changing it never changes the store (a database hands out
 * fresh rows too). The vector and the search context stay inside.
 */
export function toRecord(row: StoredMemory): MemoryRecord {
  const { contentKey: _key, vector, searchContext: _context, ...fields } = row;
  return {
    ...fields,
    tags: [...row.tags],
    metadata: copyJson(row.metadata),
    lastAccessedAt: copyDate(row.lastAccessedAt),
    expiresAt: copyDate(row.expiresAt),
    deletedAt: copyDate(row.deletedAt),
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
    hasEmbedding: vector !== null,
  };
}

/** A value as a JSON column stores it (dates as ISO strings): what the audit trail keeps. */
export function jsonSnapshot(value: unknown): JsonObject {
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}

/** A deep copy of plain JSON. */
export function copyJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function copyDate(date: Date | null): Date | null {
  return date === null ? null : new Date(date);
}

/** A new row as an insert stores it: version 1, no accesses, defaults as in the SQL schema. */
export function newStoredMemory(row: { id: string; tenant: TenantId; memory: NewMemory; now: Date; contradicted: boolean }): StoredMemory {
  const { memory, now } = row;
  return {
    id: row.id,
    userId: row.tenant,
    tier: memory.tier,
    scope: memory.scope ?? null,
    content: memory.content,
    contentKey: contentFingerprintText(memory.content),
    tags: [...(memory.tags ?? [])],
    metadata: copyJson(memory.metadata ?? {}),
    importance: memory.importance ?? null,
    importanceScore: memory.importanceScore ?? 0.5,
    accessCount: 0,
    lastAccessedAt: null,
    expiresAt: memory.expiresAt ? new Date(memory.expiresAt) : null,
    pinned: memory.pinned ?? false,
    stale: false,
    contradicted: row.contradicted,
    supersededBy: null,
    replacedBy: null,
    deletedAt: null,
    version: 1,
    embeddingModel: memory.embedding?.model ?? null,
    vector: memory.embedding ? toStoredVector(memory.embedding.vector) : null,
    searchContext: memory.searchContext ?? null,
    createdAt: new Date(now),
    updatedAt: new Date(now),
  };
}

/** A patch as the row fields it changes; the store updates the content fingerprint with the content. */
export function patchFields(patch: MemoryPatch): Partial<StoredMemory> {
  const change: Partial<StoredMemory> = {};
  if (patch.content !== undefined) change.content = patch.content;
  if (patch.tags !== undefined) change.tags = [...patch.tags];
  if (patch.metadata !== undefined) change.metadata = copyJson(patch.metadata);
  if (patch.importance !== undefined) change.importance = patch.importance;
  if (patch.importanceScore !== undefined) change.importanceScore = patch.importanceScore;
  if (patch.pinned !== undefined) change.pinned = patch.pinned;
  if (patch.tier !== undefined) change.tier = patch.tier;
  if (patch.expiresAt !== undefined) change.expiresAt = patch.expiresAt === null ? null : new Date(patch.expiresAt);
  if (patch.embedding === null) Object.assign(change, { vector: null, embeddingModel: null });
  else if (patch.embedding)
    Object.assign(change, { vector: toStoredVector(patch.embedding.vector), embeddingModel: patch.embedding.model });
  return change;
}

/** Applies a change to a row; a client-visible one bumps the version and `updatedAt`. */
export function changeRow(row: StoredMemory, change: Partial<StoredMemory>, bumpVersion: boolean, now: Date): void {
  Object.assign(row, change);
  if (change.content !== undefined) row.contentKey = contentFingerprintText(change.content);
  if (bumpVersion) {
    row.version++;
    row.updatedAt = now;
  }
}
