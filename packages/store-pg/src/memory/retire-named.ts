import type { Actor, IdGenerator, MemoryRecord, SupersessionEffect, SupersessionInputs, TenantId } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import { isUuid } from '../ids/uuid-v7.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { writeAudit } from './audit-trail.js';
import { hasEmbeddingColumn, isLiveAt, MEMORY_COLUMNS, type MemoryRow, toMemoryRecord, updateMemoryRow } from './memory-row.js';
import { insertPlannedLinks } from './planned-links.js';

/** How far a supersession chain is followed (as core's in-memory store does). */
const SUPERSESSION_CHAIN_LIMIT = 100;

/** What a unit of work writes with: the tenant, who writes, the ids of links, and the moment. */
export interface WriteContext {
  readonly tenant: TenantId;
  readonly actor: Actor;
  readonly ids: IdGenerator;
  readonly now: Date;
}

/**
 * The named rows of a `supersedes` that are live in the tenant, locked in id order, and the ids
 * that supersede `successorId` transitively: what core's supersession plan decides on.
 */
export async function supersessionInputs(
  trx: Kysely<MemsvcDatabase>,
  context: WriteContext,
  named: readonly string[],
  successorId: string,
): Promise<SupersessionInputs> {
  const { tenant, now } = context;
  const ids = named.filter(isUuid);
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
  return { found, successorChain: await supersessionChain(trx, tenant, successorId) };
}

/**
 * Applies core's supersession effects: each named row is superseded by `successorId` as a new
 * version, with a `supersede` audit row and `authored` links both ways.
 */
export async function applySupersessions(
  trx: Kysely<MemsvcDatabase>,
  context: WriteContext,
  successorId: string,
  effects: readonly SupersessionEffect[],
): Promise<MemoryRecord[]> {
  const { tenant, now } = context;
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
