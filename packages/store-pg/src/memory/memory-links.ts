import type { MemoryLinkRecord, TenantId } from '@memsvc/core';
import type { Kysely } from 'kysely';
import { isUuid } from '../ids/uuid-v7.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/**
 * The links of one memory in one tenant, in both directions, oldest first (MemoryStore.links).
 * Each side has its index (the source's unique key, memory_links_target_idx), so the OR is a
 * bitmap of two index scans, never a scan of the table.
 */
export async function readMemoryLinks(
  db: Kysely<MemsvcDatabase>,
  tenant: TenantId,
  memoryId: string,
  limit: number,
): Promise<MemoryLinkRecord[]> {
  if (!isUuid(memoryId)) return [];
  const rows = await db
    .selectFrom('memory_links')
    .select(['id', 'source_memory_id', 'target_memory_id', 'target_locator', 'rel_type', 'origin', 'score', 'note', 'created_at'])
    .where('user_id', '=', tenant)
    .where((eb) => eb.or([eb('source_memory_id', '=', memoryId), eb('target_memory_id', '=', memoryId)]))
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    sourceMemoryId: row.source_memory_id,
    targetMemoryId: row.target_memory_id,
    targetLocator: row.target_locator,
    rel: row.rel_type,
    origin: row.origin,
    score: row.score === null ? null : Number(row.score),
    note: row.note,
    createdAt: row.created_at,
  }));
}
