import {
  type ContradictionEffect,
  type MemoryRecord,
  MemsvcError,
  type PromotionUnit,
  type ReplacementEffect,
  type WriteCandidateQuery,
  type WriteCandidates,
} from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import { isUuid } from '../ids/uuid-v7.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { writeAudit } from './audit-trail.js';
import { isLiveAt, type MemoryRow, memoryByIdQuery, toMemoryRecord, updateMemoryRow } from './memory-row.js';
import type { WriteContext } from './retire-named.js';
import { applyContradictionEffects, applyReplacements, findCandidates } from './write-path.js';

/** The promoted row as read under its lock, with what its candidates are found by. */
interface HeldRow {
  readonly memory: MemoryRecord;
  readonly contentHash: string;
  readonly vector: readonly number[] | null;
}

/**
 * Reads and locks (FOR UPDATE) the live memory `id` of the promotion's tenant: the first lock a
 * promotion takes, before the write lock of its content. NOT_FOUND when there is none.
 */
export async function holdForPromotion(trx: Kysely<MemsvcDatabase>, context: WriteContext, id: string): Promise<HeldRow> {
  const row = isUuid(id)
    ? await memoryByIdQuery(trx, context.tenant, id, isLiveAt(context.now))
        .select(['content_hash', sql<string | null>`embedding::text`.as('embedding_text')])
        .forUpdate()
        .executeTakeFirst()
    : undefined;
  if (!row) throw new MemsvcError('NOT_FOUND', `memory ${id} was not found`, { memoryId: id });
  return {
    memory: toMemoryRecord(row as MemoryRow),
    contentHash: row.content_hash,
    vector: row.embedding_text ? (JSON.parse(row.embedding_text) as number[]) : null,
  };
}

/**
 * The unit of work of a promotion over PostgreSQL or PGlite, inside the transaction that holds
 * the row and the write lock of its content (PgMemoryStore.promotionUnit).
 */
export class PgPromotionUnit implements PromotionUnit {
  readonly memory: MemoryRecord;

  constructor(
    private readonly trx: Kysely<MemsvcDatabase>,
    private readonly context: WriteContext,
    private readonly held: HeldRow,
  ) {
    this.memory = held.memory;
  }

  candidates(query: WriteCandidateQuery): Promise<WriteCandidates> {
    const { memory } = this;
    return findCandidates(this.trx, {
      tenant: this.context.tenant,
      scope: memory.scope,
      contentHash: this.held.contentHash,
      vector: this.held.vector,
      tiers: query.tiers,
      now: this.context.now,
      excludeId: memory.id,
      ...(query.related ? { content: query.relatedText ?? memory.content } : {}),
    });
  }

  applyContradictions(newer: MemoryRecord, effects: readonly ContradictionEffect[]): Promise<readonly MemoryRecord[]> {
    return applyContradictionEffects(this.trx, this.context, newer, effects);
  }

  applyReplacements(newer: MemoryRecord, effects: readonly ReplacementEffect[]): Promise<readonly MemoryRecord[]> {
    return applyReplacements(this.trx, this.context, newer, effects);
  }

  async toLongTerm(auditAction: string): Promise<MemoryRecord> {
    const promoted = await this.change({ tier: 'ltm', expires_at: null }, true);
    await this.audit(auditAction, promoted.version, promoted);
    return promoted;
  }

  async collapseInto(into: MemoryRecord, auditAction: string): Promise<void> {
    const deleted = await this.change({ deleted_at: this.context.now }, true);
    await this.audit(auditAction, deleted.version, { ...deleted, collapsedInto: into.id });
  }

  markContradicted(): Promise<MemoryRecord> {
    return this.change({ contradicted: true }, false);
  }

  private change(columns: Record<string, unknown>, bumpVersion: boolean): Promise<MemoryRecord> {
    return updateMemoryRow(this.trx, this.context.tenant, this.memory.id, columns, bumpVersion, this.context.now);
  }

  private audit(action: string, version: number, after: object): Promise<void> {
    const { tenant, actor, now } = this.context;
    return writeAudit(this.trx, { tenant, memoryId: this.memory.id, actor, action, version, before: this.memory, after, at: now });
  }
}
