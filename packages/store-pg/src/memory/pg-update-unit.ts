import type { MemoryRecord, SupersessionEffect, SupersessionInputs, UpdateUnit, WriteCandidateQuery, WriteCandidates } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { writeAudit } from './audit-trail.js';
import { updateMemoryRow } from './memory-row.js';
import { applySupersessions, supersessionInputs, type WriteContext } from './retire-named.js';
import { findCandidates } from './write-path.js';

/**
 * The unit of work of an edit over PostgreSQL or PGlite, inside the transaction that holds the
 * memory's row (PgMemoryStore.updateUnit): the patch as columns, and any `supersedes`.
 */
export class PgUpdateUnit implements UpdateUnit {
  constructor(
    private readonly trx: Kysely<MemsvcDatabase>,
    private readonly context: WriteContext,
    readonly memory: MemoryRecord,
    private readonly columns: Record<string, unknown>,
  ) {}

  async apply(change: { readonly action: string; readonly bumpVersion: boolean }): Promise<MemoryRecord> {
    const { tenant, actor, now } = this.context;
    const after = await updateMemoryRow(this.trx, tenant, this.memory.id, this.columns, change.bumpVersion, now);
    await writeAudit(this.trx, {
      tenant,
      memoryId: after.id,
      actor,
      action: change.action,
      version: after.version,
      before: this.memory,
      after,
      at: now,
    });
    return after;
  }

  /** The row as the edit left it (read in the unit: its hash and vector are the store's own) is what the candidates are found by. */
  async candidates(query: WriteCandidateQuery): Promise<WriteCandidates> {
    const { tenant, now } = this.context;
    const row = await this.trx
      .selectFrom('memories')
      .select(['content', 'content_hash', 'scope', sql<string | null>`embedding::text`.as('embedding_text')])
      .where('user_id', '=', tenant)
      .where('id', '=', this.memory.id)
      .executeTakeFirstOrThrow();
    return findCandidates(this.trx, {
      tenant,
      scope: row.scope,
      contentHash: row.content_hash,
      vector: row.embedding_text ? (JSON.parse(row.embedding_text) as number[]) : null,
      tiers: query.tiers,
      now,
      excludeId: this.memory.id,
      ...(query.related ? { content: query.relatedText ?? row.content } : {}),
    });
  }

  supersessionInputs(ids: readonly string[], successorId: string): Promise<SupersessionInputs> {
    return supersessionInputs(this.trx, this.context, ids, successorId);
  }

  applySupersessions(successorId: string, effects: readonly SupersessionEffect[]): Promise<readonly MemoryRecord[]> {
    return applySupersessions(this.trx, this.context, successorId, effects);
  }
}
