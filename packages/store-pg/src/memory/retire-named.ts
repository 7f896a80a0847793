import type { Actor, IdGenerator, MemoryRecord, SupersessionRequest, TenantId } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import { isUuid } from '../ids/uuid-v7.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { writeAudit } from './audit-trail.js';
import { hasEmbeddingColumn, isLiveAt, MEMORY_COLUMNS, type MemoryRow, toMemoryRecord, updateMemoryRow } from './memory-row.js';
import { insertPlannedLinks } from './planned-links.js';

/** How far a supersession chain is followed (as core's in-memory store does). */
const SUPERSESSION_CHAIN_LIMIT = 100;

/**
 * Applies a caller's `supersedes` in the write's transaction: locks the named rows of the tenant
 * in id order, asks core's plan (which throws, rolling the whole write back, when a named id is
 * not a live, current memory of this tenant or would form a cycle), then supersedes each behind
 * `successorId` as a new version, with a `supersede` audit row and `authored` links both ways.
 */
export async function retireNamed(
  trx: Kysely<MemsvcDatabase>,
  context: { tenant: TenantId; actor: Actor; ids: IdGenerator; now: Date },
  successorId: string,
  request: SupersessionRequest,
): Promise<MemoryRecord[]> {
  const { tenant, now } = context;
  const ids = request.ids.filter(isUuid);
  const found =
    ids.length === 0
      ? []
      : (
          await trx
            .selectFrom('memories')
            .select(MEMORY_COLUMNS)
            .select(hasEmbeddingColumn)
            .where('user_id', '=', tenant)
            .where('id', 'in', ids)
            .where(isLiveAt(now))
            .orderBy('id')
            .forNoKeyUpdate()
            .execute()
        ).map((row) => toMemoryRecord(row as MemoryRow));
  const effects = request.plan(found, successorId, await supersessionChain(trx, tenant, successorId));
  const retired: MemoryRecord[] = [];
  for (const effect of effects) {
    const after = await updateMemoryRow(trx, tenant, effect.memory.id, { superseded_by: successorId }, true, now);
    await writeAudit(trx, {
      tenant,
      memoryId: after.id,
      actor: context.actor,
      action: effect.auditAction,
      version: after.version,
      before: effect.memory,
      after: { ...after, relatedMemoryId: successorId },
      at: now,
    });
    retired.push(after);
  }
  await insertPlannedLinks(
    trx,
    context,
    successorId,
    effects.map((effect) => ({ existingId: effect.memory.id, links: effect.links })),
    'authored',
  );
  return retired;
}

/** The ids of the memories that supersede `id`, transitively, in one recursive read (bounded). */
async function supersessionChain(trx: Kysely<MemsvcDatabase>, tenant: TenantId, id: string): Promise<string[]> {
  const result = await sql<{ id: string }>`
    WITH RECURSIVE chain (id, depth) AS (
      SELECT superseded_by, 1 FROM memories WHERE user_id = ${tenant} AND id = ${id} AND superseded_by IS NOT NULL
      UNION
      SELECT m.superseded_by, c.depth + 1 FROM memories m JOIN chain c ON m.user_id = ${tenant} AND m.id = c.id
      WHERE m.superseded_by IS NOT NULL AND c.depth < ${SUPERSESSION_CHAIN_LIMIT}
    )
    SELECT DISTINCT id FROM chain`.execute(trx);
  return result.rows.map((row) => row.id);
}
