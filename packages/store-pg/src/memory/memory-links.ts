import type { MemoryLinkRecord, TenantId } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
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
  return rows.map(toLinkRecord);
}

/**
 * The links of each of `memoryIds` (MemoryStore.linksOf) in one statement: for each id, the
 * oldest `perMemory` of its links, read as readMemoryLinks reads one memory's (a lateral join per
 * id, so each id uses the same two index scans).
 */
export async function readLinksOfMany(
  db: Kysely<MemsvcDatabase>,
  tenant: TenantId,
  memoryIds: readonly string[],
  perMemory: number,
): Promise<Map<string, MemoryLinkRecord[]>> {
  const ids = [...new Set(memoryIds.filter(isUuid))];
  const byMemory = new Map<string, MemoryLinkRecord[]>();
  if (ids.length === 0) return byMemory;
  const { rows } = await sql<LinkRow & { memory_id: string }>`
    SELECT wanted.memory_id, link.*
    FROM unnest(${ids}::uuid[]) AS wanted(memory_id)
    CROSS JOIN LATERAL (
      SELECT id, source_memory_id, target_memory_id, target_locator, rel_type, origin, score, note, created_at
      FROM memory_links
      WHERE user_id = ${tenant} AND (source_memory_id = wanted.memory_id OR target_memory_id = wanted.memory_id)
      ORDER BY created_at ASC, id ASC
      LIMIT ${perMemory}
    ) AS link`.execute(db);
  for (const row of rows) {
    const links = byMemory.get(row.memory_id) ?? [];
    links.push(toLinkRecord(row));
    byMemory.set(row.memory_id, links);
  }
  return byMemory;
}

interface LinkRow {
  readonly id: string;
  readonly source_memory_id: string;
  readonly target_memory_id: string | null;
  readonly target_locator: string;
  readonly rel_type: string;
  readonly origin: 'authored' | 'derived';
  readonly score: number | string | null;
  readonly note: string | null;
  readonly created_at: Date;
}

function toLinkRecord(row: LinkRow): MemoryLinkRecord {
  return {
    id: row.id,
    sourceMemoryId: row.source_memory_id,
    targetMemoryId: row.target_memory_id,
    targetLocator: row.target_locator,
    rel: row.rel_type,
    origin: row.origin,
    score: row.score === null ? null : Number(row.score),
    note: row.note,
    createdAt: row.created_at,
  };
}
