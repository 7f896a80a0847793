import {
  type AuditEntry,
  type Clock,
  type ExportedLink,
  type ExportedMemory,
  type ExportPage,
  type ExportQuery,
  type ExportStore,
  type JsonObject,
  MemsvcError,
  type TenantId,
} from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import { isUuid } from '../ids/uuid-v7.js';
import { toAuditEntry } from '../memory/audit-trail.js';
import { hasEmbeddingColumn, isLiveAt, isUnexpiredAt, MEMORY_COLUMNS, type MemoryRow, toMemoryRecord } from '../memory/memory-row.js';
import { sameScope } from '../memory/write-path.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';

export interface PgExportStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
  /** Judges which short-term memories have expired, by the engine's clock. */
  readonly clock: Clock;
}

type ExportRow = MemoryRow & { search_context: string | null; embedded_at: Date | null; embedding?: string | null };

/**
 * The export's paged read (issue 17): one statement for a page of memories in ascending id
 * order (a keyset on the primary key, so a page costs the same at any depth), then one for their
 * links and, when asked, one for their audit rows — three round trips per page whatever its size.
 */
export class PgExportStore implements ExportStore {
  constructor(private readonly options: PgExportStoreOptions) {}

  async exportPage(tenant: TenantId, query: ExportQuery): Promise<ExportPage> {
    if (query.after !== undefined && !isUuid(query.after)) {
      throw new MemsvcError('INVALID_INPUT', 'cursor is not one this server returned (expected the nextCursor of a previous page)', {
        field: 'cursor',
      });
    }
    const { db } = this.options;
    const now = this.options.clock.now();
    const rows = (await db
      .selectFrom('memories')
      .select(MEMORY_COLUMNS)
      .select(hasEmbeddingColumn)
      .select(['search_context', 'embedded_at'])
      .$if(query.includeVectors, (q) => q.select('embedding'))
      .where('user_id', '=', tenant)
      .where(query.includeDeleted ? isUnexpiredAt(now) : isLiveAt(now))
      .$if(!query.includeSuperseded, (q) => q.where('superseded_by', 'is', null))
      .$if(query.tier !== undefined, (q) => q.where('tier', '=', query.tier ?? 'ltm'))
      .$if(query.scope !== undefined, (q) => q.where(sameScope(query.scope ?? null)))
      // Any of the tags: `&&` is array overlap.
      .$if((query.tags?.length ?? 0) > 0, (q) => q.where(sql<boolean>`tags && ${[...(query.tags ?? [])]}::text[]`))
      .$if(query.createdFrom !== undefined, (q) => q.where('created_at', '>=', query.createdFrom ?? now))
      .$if(query.createdTo !== undefined, (q) => q.where('created_at', '<=', query.createdTo ?? now))
      .$if(query.after !== undefined, (q) => q.where('id', '>', query.after ?? ''))
      .orderBy('id', 'asc')
      .limit(query.limit + 1)
      .execute()) as ExportRow[];
    const page = rows.slice(0, query.limit);
    const memories = page.map((row) => exportedMemory(row, query.includeVectors));
    const ids = memories.map((memory) => memory.id);
    const [links, audit] = await Promise.all([this.links(tenant, ids), query.includeAudit ? this.audit(tenant, ids) : Promise.resolve([])]);
    return { memories, links, audit, nextCursor: rows.length > query.limit ? memories.at(-1)?.id : undefined };
  }

  private async links(tenant: TenantId, ids: readonly string[]): Promise<ExportedLink[]> {
    if (ids.length === 0) return [];
    const rows = await this.options.db
      .selectFrom('memory_links')
      .selectAll()
      .where('user_id', '=', tenant)
      .where(sql<boolean>`source_memory_id = ANY(${[...ids]}::uuid[])`)
      .orderBy('id', 'asc')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      sourceMemoryId: row.source_memory_id,
      targetMemoryId: row.target_memory_id,
      targetLocator: row.target_locator,
      rel: row.rel_type,
      origin: row.origin,
      score: row.score,
      note: row.note,
      metadata: row.metadata as JsonObject,
      createdAt: row.created_at,
    }));
  }

  private async audit(tenant: TenantId, ids: readonly string[]): Promise<AuditEntry[]> {
    if (ids.length === 0) return [];
    const rows = await this.options.db
      .selectFrom('memory_audit')
      .selectAll()
      .where('user_id', '=', tenant)
      .where(sql<boolean>`memory_id = ANY(${[...ids]}::uuid[])`)
      .orderBy('id', 'asc')
      .execute();
    return rows.map(toAuditEntry);
  }
}

/**
 * pgvector's text form (`[0.5,-1e-05]`) is a JSON array of finite numbers: JSON.parse reads it in
 * one native pass (the same doubles as splitting it and parsing each element, and faster).
 */
function vectorOf(text: string): number[] {
  return JSON.parse(text) as number[];
}

function exportedMemory(row: ExportRow, withVector: boolean): ExportedMemory {
  return {
    ...toMemoryRecord(row),
    searchContext: row.search_context,
    embeddedAt: row.embedded_at,
    ...(withVector ? { vector: row.embedding ? vectorOf(row.embedding) : null } : {}),
  };
}
