import { type ImportedMemory, type ImportStore, type ImportWriteResult, MemsvcError, type TenantId } from '@memsvc/core';
import { type Kysely, sql, type Transaction } from 'kysely';
import { sqlStateOf, UNIQUE_VIOLATION } from '../auth/database-errors.js';
import type { FirstStatistics } from '../connection/first-statistics.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import type { PgVectorSpace } from '../vector/pg-vector-space.js';
import { indexLexicalTerms, withoutLexicalTrigger } from './bulk-lexical-index.js';
import { insertAuditRows, insertLinkRows, insertMemoryRows, linkSuperseded } from './import-rows.js';

export interface PgImportStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
  /** Decides which imported vectors fit (the column is typed with its dimensionality). */
  readonly vectorSpace: PgVectorSpace;
  /** Told of the memories an import wrote, so a new database gets its first statistics early. */
  readonly firstStatistics?: FirstStatistics | undefined;
}

/**
 * The import's bulk write (issue 17): one transaction per file, multi-row inserts, ids and every
 * stored field kept. It checks ownership first, inside the transaction: an id another tenant
 * holds fails the file (ids are global primary keys, and silently dropping a memory would not be
 * lossless); one this tenant holds is skipped, so importing a file twice writes it once.
 *
 * The file's lexical postings and statistics are written set-based at the end rather than by
 * the row trigger (migration 0012): the trigger updates the tenant's corpus row and term rows
 * once per memory, and in one transaction every update adds a row version the next one must
 * step over, so its cost per memory grew with the file (150 memories/s at 50,000).
 */
export class PgImportStore implements ImportStore {
  constructor(private readonly options: PgImportStoreOptions) {}

  async importMemories(
    tenant: TenantId,
    memories: readonly ImportedMemory[],
    options: { readonly dryRun: boolean },
  ): Promise<ImportWriteResult> {
    const { vectorSpace } = this.options;
    const existing = await vectorSpace.describe();
    // A database that has never held a vector takes the file's size (and model), as its first
    // write would: exported vectors are not dropped for want of a size.
    const adopted = existing ? undefined : predominantSpace(memories);
    const dimensions = existing?.dimensions ?? adopted?.dimensions;
    const keepsVector = (memory: ImportedMemory) => memory.embedding !== null && memory.embedding.vector.length === dimensions;
    try {
      const written = await this.options.db.transaction().execute(async (trx) => {
        // First, before any row lock: fixing the size locks the table, and a first write fixing
        // it meanwhile takes the same advisory lock first; in the other order the two deadlock.
        if (adopted && !options.dryRun) await vectorSpace.fixIn(trx, adopted.dimensions, adopted.model);
        const held = await memoryOwners(
          trx,
          memories.map((memory) => memory.id),
        );
        assertNoneElsewhere(held, tenant, 'memory');
        const fresh = memories.filter((memory) => !held.has(memory.id));
        const linkIds = fresh.flatMap((memory) => memory.links.map((link) => link.id));
        assertNoneElsewhere(await linkOwners(trx, linkIds), tenant, 'link');
        const result = {
          created: fresh.length,
          skipped: memories.length - fresh.length,
          vectorsDropped: fresh.filter((memory) => memory.embedding !== null && !keepsVector(memory)).length,
        };
        if (options.dryRun || fresh.length === 0) return result;
        await withoutLexicalTrigger(trx, () => insertMemoryRows(trx, tenant, fresh, keepsVector));
        await linkSuperseded(trx, tenant, fresh);
        await insertLinkRows(trx, tenant, fresh);
        await insertAuditRows(trx, tenant, fresh);
        // Last: from here to the commit a stripe of the tenant's lexical statistics is locked.
        const ids = fresh.map((memory) => memory.id);
        await indexLexicalTerms(trx, tenant, ids);
        return result;
      });
      if (!options.dryRun) this.options.firstStatistics?.noteWritten(written.created);
      if (adopted && !options.dryRun) await vectorSpace.describe();
      return written;
    } catch (error) {
      // Another import wrote one of these ids between the check and the insert.
      if (sqlStateOf(error) === UNIQUE_VIOLATION) {
        throw new MemsvcError('CONFLICT', 'a memory or link id of this file was written by another call meanwhile; import it again', {
          field: 'id',
        });
      }
      throw error;
    }
  }
}

/** The size most of a file's vectors have, with the model most of those name; none without vectors. */
function predominantSpace(memories: readonly ImportedMemory[]): { dimensions: number; model: string | null } | undefined {
  const bySize = new Map<number, Map<string | null, number>>();
  for (const { embedding, embeddingModel } of memories) {
    if (embedding === null) continue;
    const models = bySize.get(embedding.vector.length) ?? new Map<string | null, number>();
    models.set(embeddingModel, (models.get(embeddingModel) ?? 0) + 1);
    bySize.set(embedding.vector.length, models);
  }
  const total = (models: Map<string | null, number>) => [...models.values()].reduce((sum, count) => sum + count, 0);
  const [dimensions, models] = [...bySize].sort((a, b) => total(b[1]) - total(a[1]) || a[0] - b[0])[0] ?? [];
  if (dimensions === undefined || models === undefined) return undefined;
  const [model] = [...models].sort((a, b) => b[1] - a[1])[0] ?? [null];
  return { dimensions, model: model ?? null };
}

async function memoryOwners(trx: Transaction<MemsvcDatabase>, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  // FOR UPDATE: a concurrent delete of a row counted as skipped waits for this file.
  const rows = await sql<{ id: string; user_id: string }>`
    SELECT id, user_id FROM memories WHERE id = ANY(${[...ids]}::uuid[]) FOR UPDATE`.execute(trx);
  return new Map(rows.rows.map((row) => [row.id, row.user_id]));
}

async function linkOwners(trx: Transaction<MemsvcDatabase>, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await sql<{ id: string; user_id: string }>`SELECT id, user_id FROM memory_links WHERE id = ANY(${[...ids]}::uuid[])`.execute(
    trx,
  );
  return new Map(rows.rows.map((row) => [row.id, row.user_id]));
}

/** CONFLICT naming the first id another tenant holds: ids are global, a file cannot take one over. */
function assertNoneElsewhere(owners: ReadonlyMap<string, string>, tenant: TenantId, kind: 'memory' | 'link'): void {
  for (const [id, owner] of owners) {
    if (owner !== tenant) {
      throw new MemsvcError('CONFLICT', `${kind} id ${id} already exists in another tenant; nothing of this file was imported`, {
        field: 'id',
        id,
      });
    }
  }
}
