import type { TenantId } from '@memsvc/core';
import { sql, type Transaction } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/**
 * Runs `insert` with the lexical index's row trigger off for the memories it inserts
 * (migration 0012): the caller must index them with `indexLexicalTerms` before it commits.
 * Transaction-local, and switched back off at once, so any other change the transaction makes
 * is indexed by the trigger as usual.
 */
export async function withoutLexicalTrigger<T>(trx: Transaction<MemsvcDatabase>, insert: () => Promise<T>): Promise<T> {
  await sql`SELECT set_config('memsvc.bulk_lexical', 'on', true)`.execute(trx);
  const result = await insert();
  await sql`SELECT set_config('memsvc.bulk_lexical', 'off', true)`.execute(trx);
  return result;
}

/**
 * Writes the postings, document frequencies and corpus totals of memories inserted under
 * `withoutLexicalTrigger`, in one statement, with exactly the values the trigger would have
 * written had they been inserted one by one in this order (see migration 0012). It locks the
 * tenant's corpus row until the commit, as the trigger does at COMMIT: call it last.
 */
export async function indexLexicalTerms(trx: Transaction<MemsvcDatabase>, tenant: TenantId, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`SELECT memsvc_index_memory_terms_bulk(${tenant}::text, ${[...ids]}::uuid[])`.execute(trx);
}
