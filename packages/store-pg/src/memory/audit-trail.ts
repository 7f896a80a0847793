import { type Actor, AUDIT_LIMITS, type AuditEntry, changedFieldsBefore, type JsonObject, type TenantId } from '@memsvc/core';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { MemoryAuditTable, MemsvcDatabase } from '../schema/database-schema.js';

/**
 * Writes one audit row in the caller's transaction: who, what action, the version it made, the
 * earlier values of the fields it changed (`before`) and the memory as it left it (`after`).
 */
export async function writeAudit(
  trx: Kysely<MemsvcDatabase>,
  entry: {
    tenant: TenantId;
    memoryId: string;
    actor: Actor;
    action: string;
    version: number | null;
    before: object | null;
    after: object | null;
    at: Date;
  },
): Promise<void> {
  await trx
    .insertInto('memory_audit')
    .values({
      memory_id: entry.memoryId,
      user_id: entry.tenant,
      actor: entry.actor.id,
      action: entry.action,
      version: entry.version,
      before: entry.before === null ? null : JSON.stringify(changedFieldsBefore(entry.before, entry.after)),
      after: entry.after === null ? null : JSON.stringify(entry.after),
      created_at: entry.at,
    })
    .execute();
  await trimPastWindow(trx, entry.tenant, entry.memoryId);
}

/**
 * Trims the memory's entries past its newest AUDIT_LIMITS.snapshotsPerMemory as core's
 * trimmedAuditAfter says (the field names sorted by code point, as JavaScript sorts them). Each
 * audited write pushes one entry out of the window; looking at a few past its edge also trims
 * entries written without this (the contradiction marks of a write), at a bounded cost.
 */
async function trimPastWindow(trx: Kysely<MemsvcDatabase>, tenant: TenantId, memoryId: string): Promise<void> {
  await sql`
    UPDATE memory_audit
    SET before = NULL,
        after = jsonb_build_object(
          'trimmed', true,
          'changed', CASE WHEN jsonb_typeof(before) = 'object' THEN
            (SELECT jsonb_agg(field ORDER BY field COLLATE "C") FROM jsonb_object_keys(before) AS field) END)
    WHERE id IN (
      SELECT id FROM memory_audit
      WHERE user_id = ${tenant} AND memory_id = ${memoryId}
      ORDER BY id DESC
      OFFSET ${AUDIT_LIMITS.snapshotsPerMemory} LIMIT 4)
      AND after IS NOT NULL
      AND (after ->> 'trimmed') IS NULL`.execute(trx);
}

/** The audit trail of one memory in one tenant, newest first. */
export async function readAuditTrail(db: Kysely<MemsvcDatabase>, tenant: TenantId, memoryId: string, limit: number): Promise<AuditEntry[]> {
  const rows = await db
    .selectFrom('memory_audit')
    .selectAll()
    .where('user_id', '=', tenant)
    .where('memory_id', '=', memoryId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toAuditEntry);
}

/** An audit row as the engine sees it (also what an export carries). */
export function toAuditEntry(row: Selectable<MemoryAuditTable>): AuditEntry {
  return {
    id: Number(row.id),
    memoryId: row.memory_id,
    action: row.action,
    actor: row.actor,
    version: row.version,
    before: row.before as JsonObject | null,
    after: row.after as JsonObject | null,
    createdAt: row.created_at,
  };
}
