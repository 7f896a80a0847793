import type { Actor, MemoryRecord, NewMemory, TenantId } from '@memsvc/core';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { type MemoryRow, RETURNED_MEMORY_COLUMNS, toMemoryRecord, vectorLiteral } from './memory-row.js';

/** What a new row is made of, before the database has it. */
interface NewRow {
  readonly id: string;
  readonly tenant: TenantId;
  readonly memory: NewMemory;
  /** hashContent(memory.content), computed once by the caller. */
  readonly contentHash: string;
  readonly actor: Actor;
  readonly now: Date;
  readonly contradicted: boolean;
}

/**
 * The record the database will return for `row`: the audit snapshot is written in the same
 * statement as the row, so it is computed here rather than read back. Columns left to their
 * defaults take the schema's defaults (version 1, no accesses, not stale or superseded).
 */
function expectedRecord(row: NewRow): MemoryRecord {
  const { memory, now } = row;
  return toMemoryRecord({
    id: row.id,
    user_id: row.tenant,
    tier: memory.tier,
    scope: memory.scope ?? null,
    content: memory.content,
    tags: [...(memory.tags ?? [])],
    metadata: { ...(memory.metadata ?? {}) },
    importance: memory.importance ?? null,
    importance_score: memory.importanceScore ?? 0.5,
    access_count: 0,
    last_accessed_at: null,
    expires_at: memory.expiresAt ?? null,
    pinned: memory.pinned ?? false,
    stale: false,
    contradicted: row.contradicted,
    superseded_by: null,
    replaced_by: null,
    deleted_at: null,
    version: 1,
    embedding_model: memory.embedding?.model ?? null,
    created_at: now,
    updated_at: now,
    has_embedding: Boolean(memory.embedding),
  });
}

/** The typed values of a new row, in the column order of INSERT_COLUMNS. */
function rowValues(row: NewRow): RawBuilder<unknown> {
  const { memory, now } = row;
  return sql.join([
    sql`${row.id}::uuid`,
    sql`${row.tenant}::text`,
    sql`${memory.tier}::text`,
    sql`${memory.scope ?? null}::text`,
    sql`${memory.content}::text`,
    sql`${row.contentHash}::text`,
    sql`${[...(memory.tags ?? [])]}::text[]`,
    sql`${JSON.stringify(memory.metadata ?? {})}::jsonb`,
    sql`${memory.importance ?? null}::double precision`,
    sql`${memory.importanceScore ?? 0.5}::double precision`,
    sql`${memory.pinned ?? false}::boolean`,
    sql`${row.contradicted}::boolean`,
    sql`${memory.expiresAt ?? null}::timestamptz`,
    memory.embedding ? vectorLiteral(memory.embedding.vector) : sql`NULL::vector`,
    sql`${memory.embedding?.model ?? null}::text`,
    sql`${memory.embedding ? now : null}::timestamptz`,
    sql`${now}::timestamptz`,
    sql`${now}::timestamptz`,
    sql`${memory.searchContext ?? null}::text`,
  ]);
}

const INSERT_COLUMNS = sql.raw(
  'id, user_id, tier, scope, content, content_hash, tags, metadata, importance, importance_score, pinned, contradicted, expires_at, embedding, embedding_model, embedded_at, created_at, updated_at, search_context',
);

/** INSERT … SELECT of one row and its `create` audit row, as the CTEs `inserted` and `audited`. */
function insertAndAudit(row: NewRow, condition: RawBuilder<unknown>) {
  const snapshot = JSON.stringify(expectedRecord(row));
  return sql`inserted AS (
      INSERT INTO memories (${INSERT_COLUMNS})
      SELECT ${rowValues(row)} WHERE ${condition}
      RETURNING ${RETURNED_MEMORY_COLUMNS}
    ),
    audited AS (
      INSERT INTO memory_audit (memory_id, user_id, actor, action, version, before, after, created_at)
      SELECT id, user_id, ${row.actor.id}::text, 'create', version, NULL, ${snapshot}::jsonb, ${row.now}::timestamptz FROM inserted
    )`;
}

/** Inserts a row with its audit entry in one statement. */
export async function insertMemory(db: Kysely<MemsvcDatabase>, row: NewRow): Promise<MemoryRecord> {
  const result = await sql<MemoryRow>`WITH ${insertAndAudit(row, sql`true`)} SELECT * FROM inserted`.execute(db);
  const inserted = result.rows[0];
  if (!inserted) throw new Error('INSERT … RETURNING returned no row');
  return toMemoryRecord(inserted);
}

/** A candidate row of a write, or the row the write inserted. */
export type CandidateOrInsertedRow = MemoryRow & { similarity: number | null; kind: 'exact' | 'near' | 'inserted' };

/**
 * The common write in one statement: finds the candidates and, when none of them can change the
 * decision (no exact match, every neighbour below `plainInsertBelow`), inserts the row and its
 * audit entry. Returns the candidates and, if it inserted, the new row (kind `inserted`). When
 * nothing was inserted the caller decides on the candidates and writes in further statements.
 */
export async function insertUnlessRelevantCandidates(
  db: Kysely<MemsvcDatabase>,
  candidates: RawBuilder<unknown>,
  plainInsertBelow: number,
  row: NewRow,
): Promise<CandidateOrInsertedRow[]> {
  const noneRelevant = sql`NOT EXISTS (SELECT 1 FROM candidates WHERE kind = 'exact' OR similarity >= ${plainInsertBelow}::double precision)`;
  const result = await sql<CandidateOrInsertedRow>`
    WITH candidates AS (${candidates}),
    ${insertAndAudit(row, noneRelevant)}
    SELECT *, NULL::double precision AS similarity, 'inserted' AS kind FROM inserted
    UNION ALL
    SELECT * FROM candidates`.execute(db);
  return result.rows;
}
