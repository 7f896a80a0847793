import {
  type ClearanceOptions,
  type Clock,
  type ContradictedPair,
  type ContradictedPairPage,
  type ContradictionClearance,
  type MemoryPage,
  type MemoryRecord,
  MemsvcError,
  type ReviewStore,
  type TenantId,
} from '@memsvc/core';
import { type Kysely, sql, type Transaction } from 'kysely';
import { isUuid } from '../ids/uuid-v7.js';
import { writeAudit } from '../memory/audit-trail.js';
import { hasEmbeddingColumn, isLiveAt, MEMORY_COLUMNS, type MemoryRow, toMemoryRecord, updateMemoryRow } from '../memory/memory-row.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { decodePairCursor, decodeScoreCursor, encodePairCursor, encodeScoreCursor } from './review-cursors.js';

export interface PgReviewStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
  /** "Now" for expiry and the audit rows' time. */
  readonly clock: Clock;
}

/** Most pairs of one page. */
const PAIRS_MAX = 100;
/** Most rows of one low-importance page, and most ids of one lookup. */
const ROWS_MAX = 1000;

/**
 * The ReviewStore port over PostgreSQL or PGlite. Every statement filters on the tenant.
 *
 * Contradicted pairs are found from the tenant's marked memories, not from memory_links: links
 * have no index by tenant and relation, but the marked memories are a filter on the tenant's own
 * index (memories_user_live_idx), and each one's links are reached through the links' source and
 * target indexes. The work grows with the tenant's rows and marked memories, never with the
 * table: at 50,000 memories of one tenant with 1,000 marked, one page takes tens of milliseconds
 * on PostgreSQL, most of it the pass over the tenant's rows for the mark. A partial index on
 * marked rows (a migration) would take that pass away if tenants grow much larger.
 */
export class PgReviewStore implements ReviewStore {
  constructor(private readonly options: PgReviewStoreOptions) {}

  private get db() {
    return this.options.db;
  }

  async contradictedPairs(tenant: TenantId, query: { limit: number; cursor?: string | undefined }): Promise<ContradictedPairPage> {
    checkLimit(query.limit, PAIRS_MAX);
    const after = query.cursor === undefined ? undefined : decodePairCursor(query.cursor);
    const now = this.options.clock.now();
    const found = await sql<{ low_id: string; high_id: string; found_at: Date; similarity: number | null }>`
      WITH flagged AS MATERIALIZED (
        SELECT m.id FROM memories m WHERE ${openMemory('m', tenant, now)} AND m.contradicted
      ),
      linked AS (
        SELECT l.source_memory_id AS x, l.target_memory_id AS y, l.created_at, l.score
        FROM flagged f JOIN memory_links l ON l.source_memory_id = f.id
        WHERE l.user_id = ${tenant} AND l.rel_type = 'contradicts' AND l.target_memory_id IS NOT NULL
        UNION ALL
        SELECT l.source_memory_id, l.target_memory_id, l.created_at, l.score
        FROM flagged f JOIN memory_links l ON l.target_memory_id = f.id
        WHERE l.user_id = ${tenant} AND l.rel_type = 'contradicts'
      ),
      pairs AS (
        SELECT least(x, y) AS low_id, greatest(x, y) AS high_id, max(created_at) AS found_at, max(score) AS similarity
        FROM linked WHERE x <> y GROUP BY 1, 2
      )
      SELECT p.low_id, p.high_id, p.found_at, p.similarity
      FROM pairs p
      JOIN memories a ON a.id = p.low_id
      JOIN memories b ON b.id = p.high_id
      WHERE ${openMemory('a', tenant, now)} AND ${openMemory('b', tenant, now)}
        ${after === undefined ? sql`` : sql`AND (p.high_id, p.low_id) < (${after.highId}::uuid, ${after.lowId}::uuid)`}
      ORDER BY p.high_id DESC, p.low_id DESC
      LIMIT ${query.limit + 1}`.execute(this.db);
    const rows = found.rows.slice(0, query.limit);
    const members = new Map(
      (
        await this.memoriesByIds(
          tenant,
          rows.flatMap((row) => [row.low_id, row.high_id]),
        )
      ).map((m) => [m.id, m]),
    );
    const pairs = rows.flatMap((row) => {
      const low = members.get(row.low_id);
      const high = members.get(row.high_id);
      return low && high ? [toPair(low, high, row)] : [];
    });
    const last = rows.at(-1);
    return {
      pairs,
      nextCursor: found.rows.length > query.limit && last ? encodePairCursor({ highId: last.high_id, lowId: last.low_id }) : undefined,
    };
  }

  async contradictedPair(tenant: TenantId, firstId: string, secondId: string): Promise<ContradictedPair | undefined> {
    if (!isUuid(firstId) || !isUuid(secondId) || firstId === secondId) return undefined;
    // Both directions through the links' (source, …) unique index.
    const link = await sql<{ found_at: Date | null; similarity: number | null }>`
      SELECT max(l.created_at) AS found_at, max(l.score) AS similarity
      FROM memory_links l
      WHERE l.user_id = ${tenant} AND l.rel_type = 'contradicts'
        AND ((l.source_memory_id = ${firstId}::uuid AND l.target_memory_id = ${secondId}::uuid)
          OR (l.source_memory_id = ${secondId}::uuid AND l.target_memory_id = ${firstId}::uuid))`.execute(this.db);
    const found = link.rows[0];
    if (!found?.found_at) return undefined;
    const members = await this.openMemories(this.db, tenant, [firstId, secondId]);
    const [a, b] = members;
    if (!a || !b || (!a.contradicted && !b.contradicted)) return undefined;
    return toPair(a, b, { found_at: found.found_at, similarity: found.similarity });
  }

  async clearContradicted(
    tenant: TenantId,
    memories: readonly ContradictionClearance[],
    options: ClearanceOptions,
  ): Promise<readonly MemoryRecord[]> {
    if (memories.length === 0) return [];
    const now = this.options.clock.now();
    return this.db.transaction().execute(async (trx) => {
      const ids = memories.map((memory) => memory.id);
      // Locked in id order, as every write path locks rows, so two resolutions never wait on each other.
      const held = new Map(
        (await this.openMemories(trx, tenant, ids, { lock: true, includeSuperseded: true })).map((memory) => [memory.id, memory]),
      );
      for (const wanted of memories) {
        const before = held.get(wanted.id);
        if (!before) throw new MemsvcError('NOT_FOUND', `memory ${wanted.id} was not found`, { memoryId: wanted.id });
        if (wanted.expectedVersion !== undefined && before.version !== wanted.expectedVersion) {
          throw new MemsvcError(
            'CONFLICT',
            `memory ${wanted.id} was modified: it is at version ${before.version}, not ${wanted.expectedVersion}; read it again and retry`,
            { memoryId: wanted.id, currentVersion: before.version, expectedVersion: wanted.expectedVersion },
          );
        }
      }
      const cleared: MemoryRecord[] = [];
      for (const wanted of memories) {
        const before = held.get(wanted.id);
        if (!before?.contradicted) continue;
        if (options.keepWhileOpen && (await hasOpenPair(trx, tenant, before.id, now))) continue;
        // A person's decision, unlike the write path's marking: a new version, so an agent that
        // read the memory before sees that it changed.
        const after = await updateMemoryRow(trx, tenant, before.id, { contradicted: false }, true, now);
        await writeAudit(trx, {
          tenant,
          memoryId: before.id,
          actor: options.actor,
          action: options.action,
          version: after.version,
          before,
          after: { ...after, ...options.details },
          at: now,
        });
        cleared.push(after);
      }
      return cleared;
    });
  }

  async lowImportance(tenant: TenantId, query: { maxScore: number; limit: number; cursor?: string | undefined }): Promise<MemoryPage> {
    checkLimit(query.limit, ROWS_MAX);
    if (!Number.isFinite(query.maxScore)) throw new MemsvcError('INVALID_INPUT', 'maxScore must be a number', { field: 'maxScore' });
    const after = query.cursor === undefined ? undefined : decodeScoreCursor(query.cursor);
    // Lowest first: memories_user_importance_idx (user_id, importance_score DESC, id DESC) read
    // backwards, from the bottom up to maxScore, resuming after the cursor's (score, id).
    const rows = await this.db
      .selectFrom('memories')
      .select(MEMORY_COLUMNS)
      .select(hasEmbeddingColumn)
      .where('user_id', '=', tenant)
      .where('deleted_at', 'is', null)
      .where('importance_score', '<=', query.maxScore)
      .where('tier', '=', 'ltm')
      .where('superseded_by', 'is', null)
      .$if(after !== undefined, (select) =>
        select.where(sql<boolean>`(importance_score, id) > (${after?.score ?? 0}::float8, ${after?.id ?? ''}::uuid)`),
      )
      .orderBy('importance_score', 'asc')
      .orderBy('id', 'asc')
      .limit(query.limit + 1)
      .execute();
    const items = rows.slice(0, query.limit).map((row) => toMemoryRecord(row as MemoryRow));
    const last = items.at(-1);
    return {
      items,
      nextCursor: rows.length > query.limit && last ? encodeScoreCursor({ score: last.importanceScore, id: last.id }) : undefined,
    };
  }

  async memoriesByIds(tenant: TenantId, ids: readonly string[]): Promise<readonly MemoryRecord[]> {
    if (ids.length > ROWS_MAX) throw new MemsvcError('INVALID_INPUT', `at most ${ROWS_MAX} ids at once`, { field: 'ids' });
    return this.openMemories(this.db, tenant, ids, { includeSuperseded: true });
  }

  /** Live memories of the tenant among `ids` (unsuperseded unless asked), in id order; locked when asked. */
  private async openMemories(
    db: Kysely<MemsvcDatabase> | Transaction<MemsvcDatabase>,
    tenant: TenantId,
    ids: readonly string[],
    options: { lock?: boolean; includeSuperseded?: boolean } = {},
  ): Promise<MemoryRecord[]> {
    const valid = [...new Set(ids.filter(isUuid))];
    if (valid.length === 0) return [];
    const rows = await db
      .selectFrom('memories')
      .select(MEMORY_COLUMNS)
      .select(hasEmbeddingColumn)
      .where('user_id', '=', tenant)
      .where('id', 'in', valid)
      .where(isLiveAt(this.options.clock.now()))
      .$if(!options.includeSuperseded, (select) => select.where('superseded_by', 'is', null))
      .orderBy('id')
      .$if(options.lock === true, (select) => select.forUpdate())
      .execute();
    return rows.map((row) => toMemoryRecord(row as MemoryRow));
  }
}

/** A memory that can take part in an open pair: the tenant's, live (not deleted, not expired), not superseded. */
function openMemory(alias: string, tenant: TenantId, now: Date) {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<boolean>`${column('user_id')} = ${tenant} AND ${column('deleted_at')} IS NULL AND ${column('superseded_by')} IS NULL
    AND (${column('tier')} = 'ltm' OR ${column('expires_at')} > ${now})`;
}

/**
 * Whether a marked memory still belongs to an open pair: a `contradicts` link, either way, to an
 * open memory (the memory itself being marked, that is what makes the pair open).
 */
async function hasOpenPair(trx: Transaction<MemsvcDatabase>, tenant: TenantId, id: string, now: Date): Promise<boolean> {
  const result = await sql<{ open: boolean }>`
    SELECT EXISTS (
      SELECT 1 FROM memory_links l
      JOIN memories p ON p.id = CASE WHEN l.source_memory_id = ${id}::uuid THEN l.target_memory_id ELSE l.source_memory_id END
      WHERE l.user_id = ${tenant} AND l.rel_type = 'contradicts'
        AND (l.source_memory_id = ${id}::uuid OR l.target_memory_id = ${id}::uuid)
        AND p.id <> ${id}::uuid AND ${openMemory('p', tenant, now)}
    ) AS open`.execute(trx);
  return result.rows[0]?.open === true;
}

/** The pair with its newer memory first: later created, then the larger id. */
function toPair(a: MemoryRecord, b: MemoryRecord, link: { found_at: Date; similarity: number | null }): ContradictedPair {
  const aIsNewer = a.createdAt.getTime() > b.createdAt.getTime() || (a.createdAt.getTime() === b.createdAt.getTime() && a.id > b.id);
  const [newer, older] = aIsNewer ? [a, b] : [b, a];
  return { newer, older, similarity: link.similarity === null ? null : Number(link.similarity), foundAt: new Date(link.found_at) };
}

function checkLimit(limit: number, max: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > max) {
    throw new MemsvcError('INVALID_INPUT', `limit must be a whole number from 1 to ${max}`, { field: 'limit' });
  }
}
