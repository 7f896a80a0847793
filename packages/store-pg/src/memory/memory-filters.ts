import type { RecallFilters, TenantId } from '@memsvc/core';
import { type SelectQueryBuilder, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { isLiveAt, isUnexpiredAt } from './memory-row.js';
import { sameScope } from './write-path.js';

export type MemoriesQuery = SelectQueryBuilder<MemsvcDatabase, 'memories', object>;

/** The read filters, with whether deleted (restorable) rows are left out, shown too, or the only ones shown. */
type VisibilityFilters = RecallFilters & { includeDeleted?: boolean | undefined; onlyDeleted?: boolean | undefined };

/**
 * The SQL of core's one filter rule (admitsMemory, R-FILTER-ONE-RULE), which every read uses
 * (list, recall, load_context), so a filter means the same everywhere: the tenant always; live
 * rows (deleted ones too, or only, when asked); superseded rows only when asked; `tags` = carries
 * all of them; `metadata` = contains this object. The contract suite holds the two to the same
 * answers on the same rows (one-filter-rule.test.ts).
 */
export function filterMemories(query: MemoriesQuery, tenant: TenantId, filters: VisibilityFilters, now: Date): MemoriesQuery {
  return filterVisibleMemories(query.where('user_id', '=', tenant), filters, now);
}

/**
 * filterMemories without the tenant: for a query that reaches memories by primary key from rows
 * already scoped to the tenant (a lexical posting), where a tenant condition would let the
 * planner walk the tenant's index instead of fetching the one row.
 */
export function filterVisibleMemories(query: MemoriesQuery, filters: VisibilityFilters, now: Date): MemoriesQuery {
  return query
    .where(filters.includeDeleted || filters.onlyDeleted ? isUnexpiredAt(now) : isLiveAt(now))
    .$if(filters.onlyDeleted === true, (q) => q.where('deleted_at', 'is not', null))
    .$if(!filters.includeSuperseded && filters.marker !== 'superseded', (q) => q.where('superseded_by', 'is', null))
    .$if(filters.marker === 'superseded', (q) => q.where('superseded_by', 'is not', null))
    .$if(filters.marker === 'pinned', (q) => q.where('pinned', '=', true))
    .$if(filters.marker === 'stale', (q) => q.where('stale', '=', true))
    .$if(filters.marker === 'contradicted', (q) => q.where('contradicted', '=', true))
    .$if(filters.tier !== undefined, (q) => q.where('tier', '=', filters.tier ?? 'ltm'))
    .$if(filters.scope !== undefined, (q) => q.where(sameScope(filters.scope ?? null)))
    .$if((filters.tags?.length ?? 0) > 0, (q) => q.where(sql<boolean>`tags @> ${[...(filters.tags ?? [])]}::text[]`))
    .$if(filters.metadata !== undefined, (q) => q.where(sql<boolean>`metadata @> ${JSON.stringify(filters.metadata)}::jsonb`))
    .$if(filters.createdFrom !== undefined, (q) => q.where('created_at', '>=', filters.createdFrom ?? now))
    .$if(filters.createdTo !== undefined, (q) => q.where('created_at', '<=', filters.createdTo ?? now));
}
