import type { ImportedAuditRow, ImportedLink, ImportedMemory, JsonObject, TenantId } from '@memsvc/core';
import { type RawBuilder, sql, type Transaction } from 'kysely';
import { vectorLiteral } from '../memory/memory-row.js';
import { hashContent } from '../memory/write-path.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/**
 * Rows per INSERT. A memory row binds 22 parameters, so 500 rows stay far below PostgreSQL's
 * 65,535, while one statement per 500 memories makes the round trips negligible next to the
 * rows themselves.
 */
export const IMPORT_BATCH_ROWS = 500;

const MEMORY_COLUMNS = sql.raw(
  'id, user_id, tier, scope, content, content_hash, tags, metadata, importance, importance_score, access_count, last_accessed_at, ' +
    'expires_at, pinned, stale, contradicted, deleted_at, version, embedding, embedding_model, embedded_at, search_context, created_at, updated_at',
);

/**
 * Inserts memories as they were stored elsewhere: ids, versions, timestamps, markers and counts
 * unchanged. `superseded_by` and `replaced_by` are left for `linkSuperseded` (their targets may come later in the file).
 * The derived columns are the database's: the content hash by the write path's own function, the
 * vector shard a generated column, and the lexical postings written by the trigger (migration
 * 0008) or, under `withoutLexicalTrigger`, by `indexLexicalTerms` for all the rows at once.
 */
export async function insertMemoryRows(
  trx: Transaction<MemsvcDatabase>,
  tenant: TenantId,
  memories: readonly ImportedMemory[],
  keepsVector: (memory: ImportedMemory) => boolean,
): Promise<void> {
  for (const batch of batches(memories)) {
    const rows = batch.map((memory) => {
      const vector = keepsVector(memory) ? memory.embedding : null;
      return sql`(${sql.join([
        sql`${memory.id}::uuid`,
        sql`${tenant}::text`,
        sql`${memory.tier}::text`,
        sql`${memory.scope}::text`,
        sql`${memory.content}::text`,
        sql`${hashContent(memory.content)}::text`,
        sql`${[...memory.tags]}::text[]`,
        sql`${JSON.stringify(memory.metadata)}::jsonb`,
        sql`${memory.importance}::double precision`,
        sql`${memory.importanceScore}::double precision`,
        sql`${memory.accessCount}::integer`,
        sql`${memory.lastAccessedAt}::timestamptz`,
        sql`${memory.expiresAt}::timestamptz`,
        sql`${memory.pinned}::boolean`,
        sql`${memory.stale}::boolean`,
        sql`${memory.contradicted}::boolean`,
        sql`${memory.deletedAt}::timestamptz`,
        sql`${memory.version}::integer`,
        vector ? vectorLiteral(vector.vector) : sql`NULL::vector`,
        // A model without its vector would claim an embedding the row does not have.
        sql`${vector ? memory.embeddingModel : null}::text`,
        sql`${vector ? vector.embeddedAt : null}::timestamptz`,
        sql`${memory.searchContext}::text`,
        sql`${memory.createdAt}::timestamptz`,
        sql`${memory.updatedAt}::timestamptz`,
      ])})`;
    });
    await sql`INSERT INTO memories (${MEMORY_COLUMNS}) VALUES ${sql.join(rows)}`.execute(trx);
  }
}

/**
 * Sets `superseded_by` and `replaced_by` once every memory of the file is in. A target the tenant
 * does not hold (filtered out of the export, or an expired short-term memory the export never
 * carries) is left null: the state a hard delete of the target leaves (ON DELETE SET NULL).
 */
export async function linkSuperseded(
  trx: Transaction<MemsvcDatabase>,
  tenant: TenantId,
  memories: readonly ImportedMemory[],
): Promise<void> {
  await linkColumn(trx, tenant, memories, 'superseded_by', (memory) => memory.supersededBy);
  await linkColumn(trx, tenant, memories, 'replaced_by', (memory) => memory.replacedBy);
}

async function linkColumn(
  trx: Transaction<MemsvcDatabase>,
  tenant: TenantId,
  memories: readonly ImportedMemory[],
  column: 'superseded_by' | 'replaced_by',
  targetOf: (memory: ImportedMemory) => string | null,
): Promise<void> {
  const linked = memories.filter((memory) => targetOf(memory) !== null);
  for (const batch of batches(linked)) {
    const pairs = batch.map((memory) => sql`(${memory.id}::uuid, ${targetOf(memory)}::uuid)`);
    await sql`
      UPDATE memories SET ${sql.ref(column)} = pair.target
      FROM (VALUES ${sql.join(pairs)}) AS pair (id, target)
      WHERE memories.id = pair.id AND memories.user_id = ${tenant}
        AND EXISTS (SELECT 1 FROM memories AS target WHERE target.id = pair.target AND target.user_id = ${tenant})`.execute(trx);
  }
}

/** Inserts the memories' outgoing links; a target the tenant does not hold becomes null (its locator stays). */
export async function insertLinkRows(
  trx: Transaction<MemsvcDatabase>,
  tenant: TenantId,
  memories: readonly ImportedMemory[],
): Promise<void> {
  const links = memories.flatMap((memory) => memory.links.map((link) => ({ source: memory.id, link })));
  for (const batch of batches(links)) {
    const rows = batch.map(({ source, link }) => linkValues(source, link));
    await sql`
      INSERT INTO memory_links (id, user_id, source_memory_id, target_memory_id, target_locator, rel_type, origin, score, note, metadata, created_at)
      SELECT link.id, ${tenant}, link.source,
             CASE WHEN EXISTS (SELECT 1 FROM memories AS target WHERE target.id = link.target AND target.user_id = ${tenant})
                  THEN link.target END,
             link.locator, link.rel, link.origin, link.score, link.note, link.metadata, link.created_at
      FROM (VALUES ${sql.join(rows)}) AS link (id, source, target, locator, rel, origin, score, note, metadata, created_at)`.execute(trx);
  }
}

function linkValues(source: string, link: ImportedLink): RawBuilder<unknown> {
  return sql`(${sql.join([
    sql`${link.id}::uuid`,
    sql`${source}::uuid`,
    sql`${link.targetMemoryId}::uuid`,
    sql`${link.targetLocator}::text`,
    sql`${link.rel}::text`,
    sql`${link.origin}::text`,
    sql`${link.score}::double precision`,
    sql`${link.note}::text`,
    sql`${JSON.stringify(link.metadata)}::jsonb`,
    sql`${link.createdAt}::timestamptz`,
  ])})`;
}

/**
 * Inserts the audit rows, in file order so their new ids keep each memory's sequence. The
 * snapshots get their owner back (the export leaves it out): restore_memory reads them whole.
 */
export async function insertAuditRows(
  trx: Transaction<MemsvcDatabase>,
  tenant: TenantId,
  memories: readonly ImportedMemory[],
): Promise<void> {
  const rows = memories.flatMap((memory) => memory.audit.map((entry) => ({ memoryId: memory.id, entry })));
  for (const batch of batches(rows)) {
    await trx
      .insertInto('memory_audit')
      .values(
        batch.map(({ memoryId, entry }) => ({
          memory_id: memoryId,
          user_id: tenant,
          actor: entry.actor,
          action: entry.action,
          version: entry.version,
          before: snapshot(entry.before, tenant),
          after: snapshot(entry.after, tenant),
          created_at: entry.createdAt,
        })),
      )
      .execute();
  }
}

function snapshot(value: ImportedAuditRow['before'], tenant: TenantId): string | null {
  return value === null ? null : JSON.stringify({ ...value, userId: tenant } satisfies JsonObject);
}

function* batches<T>(items: readonly T[]): Generator<readonly T[]> {
  for (let start = 0; start < items.length; start += IMPORT_BATCH_ROWS) yield items.slice(start, start + IMPORT_BATCH_ROWS);
}
