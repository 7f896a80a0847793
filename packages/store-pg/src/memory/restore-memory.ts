import { type Actor, AUDIT_LIMITS, type MemoryRecord, MemsvcError, type TenantId } from '@memsvc/core';
import { sql, type Transaction } from 'kysely';
import { isUuid } from '../ids/uuid-v7.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { writeAudit } from './audit-trail.js';
import { isUnexpiredAt, type MemoryRow, memoryByIdQuery, toMemoryRecord } from './memory-row.js';
import { hashContent } from './write-path.js';

type UpdateRow = (change: Record<string, unknown>, bumpVersion: boolean) => Promise<MemoryRecord>;

/**
 * Restores a memory. Without `version`: a deleted memory comes back under its own id. With
 * `version`: the content, tags, metadata, importance and pin of that earlier version (from its
 * audit snapshot) become the next version. Either way the result is a new version and an audit
 * row, so a restore can itself be undone. A content change drops the vector, which no longer
 * matches; the engine re-embeds.
 */
export async function restoreMemory(
  trx: Transaction<MemsvcDatabase>,
  request: { tenant: TenantId; id: string; actor: Actor; now: Date; version: number | undefined },
  updateRow: UpdateRow,
): Promise<MemoryRecord> {
  const { tenant, id, actor, now, version } = request;
  const row = isUuid(id) ? await memoryByIdQuery(trx, tenant, id, isUnexpiredAt(now)).forUpdate().executeTakeFirst() : undefined;
  if (!row)
    throw new MemsvcError('NOT_FOUND', `memory ${id} was not found (a short-term memory cannot be restored after it expired)`, {
      memoryId: id,
    });
  const before = toMemoryRecord(row as MemoryRow);

  if (version === undefined) {
    if (before.deletedAt === null) {
      throw new MemsvcError('CONFLICT', `memory ${id} is not deleted; pass version to restore the content of an earlier version`, {
        memoryId: id,
        currentVersion: before.version,
      });
    }
    const after = await updateRow({ deleted_at: null }, true);
    await writeAudit(trx, { tenant, memoryId: id, actor, action: 'restore', version: after.version, before, after, at: now });
    return after;
  }

  if (!Number.isInteger(version) || version < 1 || version >= before.version) {
    throw new MemsvcError('INVALID_INPUT', `version must be an earlier version of memory ${id}: 1 to ${before.version - 1}`, {
      field: 'version',
      currentVersion: before.version,
    });
  }
  const snapshotRow = await trx
    .selectFrom('memory_audit')
    .select('after')
    .where('user_id', '=', tenant)
    .where('memory_id', '=', id)
    .where(sql<boolean>`(after ->> 'version')::int = ${version}`)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const snapshot = snapshotRow?.after as Partial<MemoryRecord> | null | undefined;
  if (!snapshot || typeof snapshot.content !== 'string') {
    throw new MemsvcError(
      'NOT_FOUND',
      `no snapshot of version ${version} of memory ${id} is kept (the audit keeps the values of a memory's newest ${AUDIT_LIMITS.snapshotsPerMemory} changes)`,
      { memoryId: id, version },
    );
  }
  const contentChanges = snapshot.content !== before.content;
  const after = await updateRow(
    {
      content: snapshot.content,
      content_hash: hashContent(snapshot.content),
      tags: [...(snapshot.tags ?? [])],
      metadata: JSON.stringify(snapshot.metadata ?? {}),
      importance: snapshot.importance ?? null,
      pinned: snapshot.pinned ?? false,
      // As it was then, hidden or not: restoring the version before a corpus merge un-merges it.
      superseded_by: snapshot.supersededBy ?? null,
      deleted_at: null,
      ...(contentChanges ? { embedding: null, embedding_model: null, embedded_at: null } : {}),
    },
    true,
  );
  await writeAudit(trx, {
    tenant,
    memoryId: id,
    actor,
    action: 'restore',
    version: after.version,
    before,
    after: { ...after, restoredFromVersion: version },
    at: now,
  });
  return after;
}
