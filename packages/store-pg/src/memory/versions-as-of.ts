import type { TenantId, VersionsAsOf, VersionsAsOfQuery } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import { isUuid } from '../ids/uuid-v7.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { toAuditEntry } from './audit-trail.js';

/**
 * MemoryStore.versionsAsOf: each memory's newest audit row at or before `at`, newest memory
 * first, at most `limit` of them, in one statement (DISTINCT ON over memory_audit_memory_idx's
 * columns). Reads every audit row of the tenant up to `at`, which is why an `asOf` read is the
 * slow path; whether the tenant had any change by then is one probe of
 * memory_audit_tenant_time_idx (migration 0019).
 */
export async function readVersionsAsOf(db: Kysely<MemsvcDatabase>, tenant: TenantId, query: VersionsAsOfQuery): Promise<VersionsAsOf> {
  const ids = query.ids?.filter(isUuid);
  const rows =
    ids?.length === 0
      ? []
      : await db
          .selectFrom('memory_audit')
          .distinctOn('memory_id')
          // `after` is the version; `before` (the fields the change altered) is not needed, so not read.
          .select(['id', 'memory_id', 'user_id', 'actor', 'action', 'version', 'after', 'created_at'])
          .select(sql<null>`NULL::jsonb`.as('before'))
          .where('user_id', '=', tenant)
          .where('created_at', '<=', query.at)
          .$if(ids !== undefined, (select) => select.where('memory_id', 'in', ids ?? []))
          .orderBy('memory_id', 'desc')
          .orderBy('id', 'desc')
          .limit(query.limit + 1)
          .execute();
  const tenantHadMemories =
    (rows.length > 0 && ids === undefined) ||
    (
      await sql<{ found: boolean }>`
        SELECT EXISTS (SELECT 1 FROM memory_audit WHERE user_id = ${tenant} AND created_at <= ${query.at}) AS found`.execute(db)
    ).rows[0]?.found === true;
  return { entries: rows.slice(0, query.limit).map(toAuditEntry), truncated: rows.length > query.limit, tenantHadMemories };
}
