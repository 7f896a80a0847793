import { createHash } from 'node:crypto';
import {
  type Actor,
  contentFingerprintText,
  type IdGenerator,
  type MemoryRecord,
  type MemoryTier,
  type Neighbour,
  type TenantId,
  type WriteCandidates,
  type WriteDecision,
} from '@memsvc/core';
import { sql, type Transaction } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { writeAudit } from './audit-trail.js';
import { hasEmbeddingColumn, isLiveAt, MEMORY_COLUMNS, type MemoryRow, toMemoryRecord, vectorLiteral } from './memory-row.js';

/** Advisory-lock class of per-tenant write locks (the second key is the tenant's hash). */
const TENANT_LOCK_CLASS = 7_310_002;
/** How many nearest neighbours a write compares itself with. */
export const NEIGHBOUR_LIMIT = 5;

/** SHA-256 of the normalised content: what makes two memories "the same" without vectors. */
export function hashContent(content: string): string {
  return createHash('sha256').update(contentFingerprintText(content)).digest('hex');
}

/**
 * Serialises rule-checked writes of one tenant across every process sharing the database, for
 * the rest of the transaction: the duplicate check and the insert cannot interleave.
 */
export async function lockTenant(trx: Transaction<MemsvcDatabase>, tenant: TenantId): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${TENANT_LOCK_CLASS}, hashtext(${tenant}))`.execute(trx);
}

/** Same scope, with "unscoped" matching only unscoped rows. */
export function sameScope(scope: string | null) {
  return sql<boolean>`scope IS NOT DISTINCT FROM ${scope}`;
}

/**
 * The rows a new write is compared with: live, unsuperseded memories of the same tenant and
 * scope, among `tiers`; the exact-content match, and the nearest neighbours when a vector exists.
 */
export async function findCandidates(
  trx: Transaction<MemsvcDatabase>,
  query: {
    tenant: TenantId;
    scope: string | null;
    contentHash: string;
    vector: readonly number[] | null;
    tiers: readonly MemoryTier[];
    now: Date;
    excludeId?: string;
  },
): Promise<WriteCandidates> {
  const base = trx
    .selectFrom('memories')
    .select(MEMORY_COLUMNS)
    .select(hasEmbeddingColumn)
    .where('user_id', '=', query.tenant)
    .where(sameScope(query.scope))
    .where(isLiveAt(query.now))
    .where('superseded_by', 'is', null)
    .where('tier', 'in', [...query.tiers])
    .$if(query.excludeId !== undefined, (select) => select.where('id', '!=', query.excludeId ?? ''));

  const exactRow = await base.where('content_hash', '=', query.contentHash).orderBy('id').limit(1).executeTakeFirst();
  let neighbours: Neighbour[] = [];
  if (query.vector) {
    const distance = sql<number>`embedding <=> ${vectorLiteral(query.vector)}`;
    const rows = await base
      .select(sql<number>`1 - (${distance})`.as('similarity'))
      .where('embedding', 'is not', null)
      .orderBy(distance)
      .limit(NEIGHBOUR_LIMIT)
      .execute();
    neighbours = rows
      .map((row) => ({ memory: toMemoryRecord(row as MemoryRow), similarity: Number(row.similarity) }))
      .sort((a, b) => b.similarity - a.similarity);
  }
  return { exact: exactRow ? toMemoryRecord(exactRow as MemoryRow) : undefined, neighbours };
}

/**
 * Applies the contradiction part of a decision to the existing rows: policy `flag` marks them
 * contradicted (both stay visible), `supersede` hides each from default reads behind the new
 * row. Either way a link records which row contradicts or supersedes which, and an audit row
 * records the change. Markers are server bookkeeping: they do not bump the client's version.
 */
export async function applyContradictions(
  trx: Transaction<MemsvcDatabase>,
  context: { tenant: TenantId; actor: Actor; ids: IdGenerator; now: Date },
  newer: MemoryRecord,
  decision: Extract<WriteDecision, { kind: 'insert' }>,
): Promise<MemoryRecord[]> {
  const affected: MemoryRecord[] = [];
  for (const { memory: older, similarity } of decision.contradictions) {
    const change = decision.policy === 'flag' ? { contradicted: true } : { superseded_by: newer.id };
    const row = await trx
      .updateTable('memories')
      .set(change)
      .where('user_id', '=', context.tenant)
      .where('id', '=', older.id)
      .returning(MEMORY_COLUMNS)
      .returning(hasEmbeddingColumn)
      .executeTakeFirstOrThrow();
    const after = toMemoryRecord(row as MemoryRow);
    affected.push(after);
    await writeAudit(trx, {
      tenant: context.tenant,
      memoryId: older.id,
      actor: context.actor,
      action: decision.policy === 'flag' ? 'contradiction-flag' : 'supersede',
      version: after.version,
      before: older,
      after: { ...after, relatedMemoryId: newer.id, similarity },
      at: context.now,
    });
    const links =
      decision.policy === 'flag'
        ? [
            { source: newer.id, target: older.id, rel: 'contradicts' },
            { source: older.id, target: newer.id, rel: 'contradicts' },
          ]
        : [
            { source: newer.id, target: older.id, rel: 'supersedes' },
            { source: older.id, target: newer.id, rel: 'superseded-by' },
          ];
    await trx
      .insertInto('memory_links')
      .values(
        links.map((link) => ({
          id: context.ids.next(),
          user_id: context.tenant,
          source_memory_id: link.source,
          target_memory_id: link.target,
          target_locator: `id:${link.target}`,
          rel_type: link.rel,
          origin: 'derived' as const,
          score: similarity,
          metadata: '{}',
          created_at: context.now,
        })),
      )
      .onConflict((conflict) => conflict.columns(['source_memory_id', 'target_locator', 'rel_type']).doNothing())
      .execute();
  }
  return affected;
}
