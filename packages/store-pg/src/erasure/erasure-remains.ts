import type { ErasureCounts, TenantId } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { idPattern } from './erase-rows.js';

/**
 * What is left of erased memories, per place, read now: their rows and vectors, the words of
 * their audit events, postings, links, import-ledger entries and references to their ids in the
 * tenant's other rows. Term statistics hold words, not ids: an erasure removes them, but without
 * the words a later check cannot look for them (0 here). Search contexts are checked by the
 * record's quote fingerprints (quote-fingerprints.ts) and a whole user's grants by
 * erase-user-grants.ts; both count 0 here.
 */
export async function remainingOf(db: Kysely<MemsvcDatabase>, tenant: TenantId, ids: readonly string[]): Promise<ErasureCounts> {
  if (ids.length === 0) {
    return {
      memories: 0,
      vectors: 0,
      versions: 0,
      lexicalPostings: 0,
      termStatistics: 0,
      links: 0,
      importLedger: 0,
      searchContexts: 0,
      references: 0,
      grants: 0,
    };
  }
  const pattern = idPattern(ids);
  const { rows } = await sql<Record<string, string>>`
    SELECT
      (SELECT count(*) FROM memories WHERE user_id = ${tenant} AND id = ANY(${ids}::uuid[])) AS memories,
      (SELECT count(*) FROM memories WHERE user_id = ${tenant} AND id = ANY(${ids}::uuid[]) AND embedding IS NOT NULL) AS vectors,
      (SELECT count(*) FROM memory_audit WHERE user_id = ${tenant} AND memory_id = ANY(${ids}::uuid[])
         AND (before IS NOT NULL OR after IS NOT NULL)) AS versions,
      (SELECT count(*) FROM memory_terms WHERE memory_id = ANY(${ids}::uuid[])) AS lexical_postings,
      (SELECT count(*) FROM memory_links WHERE user_id = ${tenant}
         AND (source_memory_id = ANY(${ids}::uuid[]) OR target_memory_id = ANY(${ids}::uuid[])
              OR target_locator = ANY(${ids.map((id) => `id:${id}`)}::text[]))) AS links,
      (SELECT count(*) FROM memory_import_ledger WHERE user_id = ${tenant} AND memory_id = ANY(${ids}::uuid[])) AS import_ledger,
      (SELECT count(*) FROM memories WHERE user_id = ${tenant}
         AND (replaced_by = ANY(${ids}::uuid[]) OR superseded_by = ANY(${ids}::uuid[]) OR metadata::text ~ ${pattern}))
      + (SELECT count(*) FROM memory_audit WHERE user_id = ${tenant} AND NOT (memory_id = ANY(${ids}::uuid[]))
         AND (before::text ~ ${pattern} OR after::text ~ ${pattern})) AS "references"`.execute(db);
  const row = rows[0] ?? {};
  const n = (key: string) => Number(row[key] ?? 0);
  return {
    memories: n('memories'),
    vectors: n('vectors'),
    versions: n('versions'),
    lexicalPostings: n('lexical_postings'),
    termStatistics: 0,
    links: n('links'),
    importLedger: n('import_ledger'),
    searchContexts: 0,
    references: n('references'),
    grants: 0,
  };
}
