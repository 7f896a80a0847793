import { type Actor, type AuditEntry, changedFieldsBefore, type JsonObject, type TenantId } from '@memsvc/core';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { MemoryAuditTable, MemsvcDatabase } from '../schema/database-schema.js';

/**
 * Writes one audit row in the caller's transaction: who, what action, the version it made, the
 * earlier values of the fields it changed (`before`) and the memory as it left it (`after`).
 */
export async function writeAudit(
  trx: Transaction<MemsvcDatabase>,
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
