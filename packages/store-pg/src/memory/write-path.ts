import { createHash } from 'node:crypto';
import {
  type Actor,
  type ContradictionEffect,
  changedFieldsBefore,
  contentFingerprintText,
  type IdGenerator,
  type MemoryRecord,
  type MemoryTier,
  type Neighbour,
  type ReplacementEffect,
  type TenantId,
  type WriteCandidates,
} from '@memsvc/core';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { inVectorShardOf } from '../vector/vector-shards.js';
import { hasEmbeddingColumn, isLiveAt, MEMORY_COLUMNS, type MemoryRow, toMemoryRecord, vectorLiteral } from './memory-row.js';
import { insertPlannedLinks } from './planned-links.js';

/** How many nearest neighbours a write compares itself with. */
export const NEIGHBOUR_LIMIT = 5;
/** How many lexical neighbours a write is checked against for a changed fact. */
export const RELATED_LIMIT = 8;
/** Of the new content's terms, the rarest in the tenant this many are looked up. */
const RELATED_TERMS = 12;
/** Postings read per term, best first from memory_terms_impact_idx: the bound on a common word's cost. */
const RELATED_POSTINGS_PER_TERM = 32;

/** SHA-256 of the normalised content: what makes two memories "the same" without vectors. */
export function hashContent(content: string): string {
  return createHash('sha256').update(contentFingerprintText(content)).digest('hex');
}

/**
 * Same scope, with "unscoped" matching only unscoped rows. Written as `IS NULL` or `=`, never
 * `IS NOT DISTINCT FROM`: the planner estimates that form at almost no rows and then prefers a
 * sequential scan and sort to the HNSW index (measured: 24 ms instead of 2 ms at 10k rows).
 */
export function sameScope(scope: string | null) {
  return scope === null ? sql<boolean>`scope IS NULL` : sql<boolean>`scope = ${scope}`;
}

/** What a write is compared with, and where. */
export interface CandidateQuery {
  readonly tenant: TenantId;
  readonly scope: string | null;
  readonly contentHash: string;
  readonly vector: readonly number[] | null;
  readonly tiers: readonly MemoryTier[];
  readonly now: Date;
  readonly excludeId?: string;
  /** The new content, when the rules look for changed facts: its lexical neighbours are found too (kind `related`). */
  readonly content?: string;
}

/** Live, unsuperseded memories of the write's tenant and scope among its tiers. */
function baseOf(db: Kysely<MemsvcDatabase>, query: CandidateQuery) {
  return db
    .selectFrom('memories')
    .select(MEMORY_COLUMNS)
    .select(hasEmbeddingColumn)
    .where('user_id', '=', query.tenant)
    .where(sameScope(query.scope))
    .where(isLiveAt(query.now))
    .where('superseded_by', 'is', null)
    .where('tier', 'in', [...query.tiers])
    .$if(query.excludeId !== undefined, (select) => select.where('id', '!=', query.excludeId ?? ''));
}

/**
 * The rows a new write is compared with, as one query: live, unsuperseded memories of the same
 * tenant and scope among `tiers`; the exact-content match (kind `exact`, similarity 2) and the
 * nearest neighbours when a vector exists (kind `near`).
 */
export function candidatesSql(db: Kysely<MemsvcDatabase>, query: CandidateQuery): RawBuilder<unknown> {
  const base = baseOf(db, query);
  const related = query.content === undefined ? undefined : relatedSql(base, query.tenant, query.content);

  // Ordered by the hash first (one value here, so the oldest match still comes first): no index
  // yields that order, so the planner cannot trade the (user_id, content_hash) index for a walk
  // of the tenant's rows in id order that stops at the first match — the plan it chose when its
  // statistics were stale (a table written since its last ANALYZE), reading every row of the
  // tenant on every write (measured: 3,048 buffers and 2.2 ms at 3,000 rows, against 0.01 ms).
  const exact = base
    .select(sql<number>`2::double precision`.as('similarity'))
    .select(sql<string>`'exact'`.as('kind'))
    .where('content_hash', '=', query.contentHash)
    .orderBy('content_hash')
    .orderBy('id')
    .limit(1);
  if (!query.vector) return related ? sql`(${exact}) UNION ALL (${related})` : sql`${exact}`;
  const distance = sql<number>`embedding <=> ${vectorLiteral(query.vector)}`;
  const nearest = base
    .select(sql<number>`1 - (${distance})`.as('similarity'))
    .select(sql<string>`'near'`.as('kind'))
    .where('embedding', 'is not', null)
    .where(inVectorShardOf(query.tenant))
    .orderBy(distance)
    .limit(NEIGHBOUR_LIMIT);
  // Each branch has its own ORDER BY and LIMIT, so each is a parenthesised subquery.
  return related ? sql`(${exact}) UNION ALL (${nearest}) UNION ALL (${related})` : sql`(${exact}) UNION ALL (${nearest})`;
}

/**
 * The lexical neighbours of a write (R-FACT-WRITE, R-FACT-RELATED), bounded and on indexes: of the
 * terms of `content` (the write's content and its topics' words, fact-topics.ts) that the tenant
 * has (a term no memory has would take a place and find nothing), the RELATED_TERMS rarest in the tenant (lexical_terms, by primary key), each term's best
 * RELATED_POSTINGS_PER_TERM postings (memory_terms_impact_idx, index-only), and of the memories
 * they name the RELATED_LIMIT sharing the most terms — among the write's candidates (same scope,
 * live, unsuperseded) that no newer memory has replaced yet.
 */
function relatedSql(base: ReturnType<typeof baseOf>, tenant: TenantId, content: string) {
  const sharing = sql<string>`(
    SELECT posting.memory_id FROM (
      SELECT word.term FROM unnest(tsvector_to_array(to_tsvector('english', ${content}))) AS word(term)
      CROSS JOIN LATERAL (SELECT coalesce(sum(documents), 0) AS documents FROM lexical_terms WHERE user_id = ${tenant} AND term = word.term) AS df
      WHERE df.documents > 0
      ORDER BY df.documents, word.term
      LIMIT ${RELATED_TERMS}
    ) AS rare
    CROSS JOIN LATERAL (
      SELECT memory_id FROM memory_terms WHERE user_id = ${tenant} AND term = rare.term
      ORDER BY impact DESC LIMIT ${RELATED_POSTINGS_PER_TERM}
    ) AS posting
    GROUP BY posting.memory_id
    ORDER BY count(*) DESC, posting.memory_id DESC
    LIMIT ${RELATED_LIMIT * 2}
  )`;
  return base
    .select(sql<number>`NULL::double precision`.as('similarity'))
    .select(sql<string>`'related'`.as('kind'))
    .where('replaced_by', 'is', null)
    .where(sql<boolean>`id IN ${sharing}`)
    .orderBy('id', 'desc')
    .limit(RELATED_LIMIT);
}

/** Candidate rows as the decision's input. */
export function toWriteCandidates(rows: readonly (MemoryRow & { kind: string; similarity: number | null })[]): WriteCandidates {
  const exactRow = rows.find((row) => row.kind === 'exact');
  const related = rows.filter((row) => row.kind === 'related').map((row) => toMemoryRecord(row));
  const neighbours: Neighbour[] = rows
    .filter((row) => row.kind === 'near')
    .map((row) => ({ memory: toMemoryRecord(row), similarity: Number(row.similarity) }))
    .sort((a, b) => b.similarity - a.similarity);
  return { exact: exactRow ? toMemoryRecord(exactRow) : undefined, neighbours, related };
}

/** The candidates of a write, read in the caller's transaction (which holds the write lock). */
export async function findCandidates(db: Kysely<MemsvcDatabase>, query: CandidateQuery): Promise<WriteCandidates> {
  const result = await sql<MemoryRow & { kind: string; similarity: number }>`${candidatesSql(db, query)}`.execute(db);
  return toWriteCandidates(result.rows);
}

/**
 * Locks memory rows in id order and returns the ids of those still live and unsuperseded. An
 * UPDATE locks rows in the order its plan meets them, which differs between plans and moves as
 * rows are rewritten; two writes of one tenant marking overlapping neighbours could then wait for
 * each other. Taking the locks in one global order first means they never do.
 */
export async function lockLiveRowsInIdOrder(trx: Kysely<MemsvcDatabase>, tenant: TenantId, ids: readonly string[]): Promise<string[]> {
  const rows = await trx
    .selectFrom('memories')
    .select('id')
    .where('user_id', '=', tenant)
    .where('id', 'in', [...ids])
    .where('deleted_at', 'is', null)
    .where('superseded_by', 'is', null)
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Applies core's contradiction effects of a write to the existing rows: each gets the mark the
 * plan says (contradicted, or superseded by `newer`), an audit row with the plan's action, and
 * the plan's links. The plan is checked against the rows as they are under their locks: a row
 * deleted or superseded since the candidates were read is left alone. Markers are server
 * bookkeeping: they do not bump the client's version.
 */
export async function applyContradictionEffects(
  trx: Kysely<MemsvcDatabase>,
  context: { tenant: TenantId; actor: Actor; ids: IdGenerator; now: Date },
  newer: MemoryRecord,
  effects: readonly ContradictionEffect[],
): Promise<MemoryRecord[]> {
  if (effects.length === 0) return [];
  const effectOf = new Map(effects.map((effect) => [effect.neighbour.memory.id, effect]));
  const holding = new Set(await lockLiveRowsInIdOrder(trx, context.tenant, [...effectOf.keys()]));
  const affected: MemoryRecord[] = [];
  for (const mark of ['contradicted', 'superseded'] as const) {
    const ids = effects
      .filter((effect) => effect.mark === mark && holding.has(effect.neighbour.memory.id))
      .map((e) => e.neighbour.memory.id);
    if (ids.length === 0) continue;
    const rows = await trx
      .updateTable('memories')
      .set(mark === 'contradicted' ? { contradicted: true } : { superseded_by: newer.id })
      .where('user_id', '=', context.tenant)
      .where('id', 'in', ids)
      .returning(MEMORY_COLUMNS)
      .returning(hasEmbeddingColumn)
      .execute();
    affected.push(...rows.map((row) => toMemoryRecord(row as MemoryRow)));
  }
  if (affected.length === 0) return [];

  await trx
    .insertInto('memory_audit')
    .values(
      affected.map((after) => {
        const effect = effectOf.get(after.id);
        return {
          memory_id: after.id,
          user_id: context.tenant,
          actor: context.actor.id,
          action: effect?.auditAction ?? 'contradiction-flag',
          version: after.version,
          before: JSON.stringify(changedFieldsBefore(effect?.neighbour.memory ?? null, after)),
          after: JSON.stringify({ ...after, relatedMemoryId: newer.id, similarity: effect?.neighbour.similarity }),
          created_at: context.now,
        };
      }),
    )
    .execute();

  await insertPlannedLinks(
    trx,
    context,
    newer.id,
    affected.map((existing) => {
      const effect = effectOf.get(existing.id);
      return { existingId: existing.id, links: effect?.links ?? [], score: effect?.neighbour.similarity };
    }),
    'derived',
  );
  return affected;
}

/**
 * Applies core's replacement effects of a write (R-FACT-WRITE): each older row still live,
 * unsuperseded and not replaced under its lock gets `replaced_by` the new memory, an audit row
 * (`fact-change`) and the links. Server bookkeeping: no version bump.
 */
export async function applyReplacements(
  trx: Kysely<MemsvcDatabase>,
  context: { tenant: TenantId; actor: Actor; ids: IdGenerator; now: Date },
  newer: MemoryRecord,
  effects: readonly ReplacementEffect[],
): Promise<MemoryRecord[]> {
  if (effects.length === 0) return [];
  const effectOf = new Map(effects.map((effect) => [effect.finding.memory.id, effect]));
  const holding = await lockLiveRowsInIdOrder(trx, context.tenant, [...effectOf.keys()]);
  if (holding.length === 0) return [];
  const rows = await trx
    .updateTable('memories')
    .set({ replaced_by: newer.id })
    .where('user_id', '=', context.tenant)
    .where('id', 'in', holding)
    .where('replaced_by', 'is', null)
    .returning(MEMORY_COLUMNS)
    .returning(hasEmbeddingColumn)
    .execute();
  const affected = rows.map((row) => toMemoryRecord(row as MemoryRow));
  if (affected.length === 0) return [];
  await trx
    .insertInto('memory_audit')
    .values(
      affected.map((after) => {
        const effect = effectOf.get(after.id);
        return {
          memory_id: after.id,
          user_id: context.tenant,
          actor: context.actor.id,
          action: 'fact-change',
          version: after.version,
          before: JSON.stringify(changedFieldsBefore(effect?.finding.memory ?? null, after)),
          after: JSON.stringify({ ...after, relatedMemoryId: newer.id, reason: effect?.finding.reason }),
          created_at: context.now,
        };
      }),
    )
    .execute();
  await insertPlannedLinks(
    trx,
    context,
    newer.id,
    affected.map((existing) => ({ existingId: existing.id, links: effectOf.get(existing.id)?.links ?? [] })),
    'derived',
  );
  return affected;
}
