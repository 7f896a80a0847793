import { AUDIT_LIMITS, changedFieldsBefore, trimmedAuditAfter } from '../domain/audit-change.js';
import type { AuditEntry, JsonObject } from '../domain/memory.js';
import type { Actor } from '../ports/memory-store.js';
import { jsonSnapshot, type StoredMemory, toRecord } from './stored-memory.js';

/** A link between two memories that a write recorded (`contradicts`, `supersedes`, `superseded-by`). */
export interface MemoryLink {
  readonly id: string;
  readonly sourceMemoryId: string;
  readonly targetMemoryId: string;
  readonly relType: string;
  /** The similarity that made the link. */
  readonly score: number | null;
  /** `authored` when a caller stated it (`supersedes`); derived (by a write rule) when absent. */
  readonly origin?: 'authored' | 'derived';
  readonly createdAt: Date;
}

/**
 * Everything the in-memory store holds for one tenant: its memories, their audit trail and their
 * links. Each tenant has its own, so no lookup can reach another tenant's rows by accident — the
 * in-memory form of "every query filters on the tenant".
 */
export class InMemoryTenant {
  readonly rows = new Map<string, StoredMemory>();
  readonly audit: AuditEntry[] = [];
  readonly links: MemoryLink[] = [];

  /** `next` numbers audit entries across tenants, as one database sequence does. */
  constructor(private readonly nextAuditId: () => number) {}

  /** Stores a new row with its `create` audit entry, whose snapshot is the row as stored. */
  addRow(row: StoredMemory, actor: Actor, now: Date): void {
    this.rows.set(row.id, row);
    this.writeAudit({ memoryId: row.id, actor, action: 'create', version: 1, before: null, after: toRecord(row), at: now });
  }

  /**
   * Appends an audit entry as the database store writes it: `before` only the changed fields,
   * `after` whole, both as a JSON column keeps them (dates as ISO strings).
   */
  writeAudit(entry: {
    memoryId: string;
    actor: Actor;
    action: string;
    version: number | null;
    before: object | null;
    after: object | null;
    at: Date;
  }): void {
    this.audit.push({
      id: this.nextAuditId(),
      memoryId: entry.memoryId,
      action: entry.action,
      actor: entry.actor.id,
      version: entry.version,
      before: changedFieldsBefore(entry.before, entry.after),
      after: entry.after === null ? null : jsonSnapshot(entry.after),
      createdAt: new Date(entry.at),
    });
    this.trimPastWindow(entry.memoryId);
  }

  /** Trims the memory's entries past its newest AUDIT_LIMITS.snapshotsPerMemory, as the database store does. */
  private trimPastWindow(memoryId: string): void {
    let newer = 0;
    for (let i = this.audit.length - 1; i >= 0; i--) {
      const entry = this.audit[i];
      if (entry?.memoryId !== memoryId) continue;
      newer += 1;
      if (newer > AUDIT_LIMITS.snapshotsPerMemory + 4) break;
      if (newer <= AUDIT_LIMITS.snapshotsPerMemory || entry.after === null || entry.after.trimmed === true) continue;
      this.audit[i] = { ...entry, before: null, after: trimmedAuditAfter(entry.before) };
    }
  }

  /** Records a link unless the same (source, target, relation) exists already. */
  addLink(link: MemoryLink): void {
    const exists = this.links.some(
      (held) => held.sourceMemoryId === link.sourceMemoryId && held.targetMemoryId === link.targetMemoryId && held.relType === link.relType,
    );
    if (!exists) this.links.push(link);
  }

  /** The newest audit snapshot (`after`) of `memoryId` at `version`, as a restore reads it. */
  snapshotAt(memoryId: string, version: number): JsonObject | undefined {
    for (let i = this.audit.length - 1; i >= 0; i--) {
      const entry = this.audit[i];
      if (entry?.memoryId === memoryId && entry.after?.version === version) return entry.after;
    }
    return undefined;
  }
}
