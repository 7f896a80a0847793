import { AUDIT_LIMITS } from '../domain/audit-change.js';
import type { MemoryRecord } from '../domain/memory.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { Actor } from '../ports/memory-store.js';
import type { InMemoryTenant } from './in-memory-tenant.js';
import { type StoredMemory, toRecord } from './stored-memory.js';

/**
 * MemoryStore.restore on one unexpired row (`row` undefined: nothing to restore), with the SQL
 * stores' rules. Without `version`, a deleted memory comes back under its own id. With
 * `version`, the content, tags, metadata, importance, pin and superseded mark of that version
 * (from its audit snapshot) become the next version; new content drops the vector, which no
 * longer matches. Either way a new version and an audit entry, so a restore can be undone.
 */
export function restoreMemory(
  tenant: InMemoryTenant,
  row: StoredMemory | undefined,
  request: { id: string; actor: Actor; now: Date; version: number | undefined },
  change: (row: StoredMemory, change: Partial<StoredMemory>) => void,
): MemoryRecord {
  const { id, actor, now, version } = request;
  if (!row) {
    throw new MemsvcError('NOT_FOUND', `memory ${id} was not found (a short-term memory cannot be restored after it expired)`, {
      memoryId: id,
    });
  }
  const before = toRecord(row);
  if (version === undefined) {
    if (before.deletedAt === null) {
      throw new MemsvcError('CONFLICT', `memory ${id} is not deleted; pass version to restore the content of an earlier version`, {
        memoryId: id,
        currentVersion: before.version,
      });
    }
    change(row, { deletedAt: null });
    const after = toRecord(row);
    tenant.writeAudit({ memoryId: id, actor, action: 'restore', version: after.version, before, after, at: now });
    return after;
  }

  if (!Number.isInteger(version) || version < 1 || version >= before.version) {
    throw new MemsvcError('INVALID_INPUT', `version must be an earlier version of memory ${id}: 1 to ${before.version - 1}`, {
      field: 'version',
      currentVersion: before.version,
    });
  }
  const snapshot = tenant.snapshotAt(id, version) as Partial<Record<keyof MemoryRecord, unknown>> | undefined;
  if (!snapshot || typeof snapshot.content !== 'string') {
    throw new MemsvcError(
      'NOT_FOUND',
      `no snapshot of version ${version} of memory ${id} is kept (the audit keeps the values of a memory's newest ${AUDIT_LIMITS.snapshotsPerMemory} changes)`,
      { memoryId: id, version },
    );
  }
  const contentChanges = snapshot.content !== before.content;
  change(row, {
    content: snapshot.content,
    tags: Array.isArray(snapshot.tags) ? snapshot.tags.map(String) : [],
    metadata: (snapshot.metadata ?? {}) as StoredMemory['metadata'],
    importance: typeof snapshot.importance === 'number' ? snapshot.importance : null,
    pinned: snapshot.pinned === true,
    // As it was then, hidden or not: restoring the version before a corpus merge un-merges it.
    supersededBy: typeof snapshot.supersededBy === 'string' ? snapshot.supersededBy : null,
    deletedAt: null,
    ...(contentChanges ? { vector: null, embeddingModel: null } : {}),
  });
  const after = toRecord(row);
  tenant.writeAudit({
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
