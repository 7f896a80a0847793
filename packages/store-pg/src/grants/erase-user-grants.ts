import type { TenantId } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/**
 * Deletes, in the caller's transaction, every grant a user gave (its space names are the user's)
 * or received (as a user or through one of its API keys), and every default the user chose (migration 0023). Deleted rather than
 * revoked: a revoked grant stays visible to both sides, and a whole user's erasure leaves no row
 * naming them or their spaces. Returns how many rows went.
 */
export async function eraseUserGrants(trx: Kysely<MemsvcDatabase>, user: TenantId): Promise<number> {
  // The defaults of the grants that go are deleted with them (ON DELETE CASCADE), and counted here.
  const defaults = await sql`
    DELETE FROM memory_grant_defaults
    WHERE user_id = ${user} OR grant_id IN (SELECT id FROM memory_grants WHERE ${naming(user)})`.execute(trx);
  const grants = await sql`DELETE FROM memory_grants WHERE ${naming(user)}`.execute(trx);
  return Number(defaults.numAffectedRows ?? 0n) + Number(grants.numAffectedRows ?? 0n);
}

/**
 * The grant rows naming `user` (given or received, and the user's defaults) made at or before
 * `at`: what a whole-user erasure that started then must have left none of. A grant made later is
 * the user's new choice, not a remainder.
 */
export async function userGrantsRemaining(db: Kysely<MemsvcDatabase>, user: TenantId, at: Date): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    SELECT (SELECT count(*) FROM memory_grants WHERE (${naming(user)}) AND created_at <= ${at})
         + (SELECT count(*) FROM memory_grant_defaults WHERE user_id = ${user} AND created_at <= ${at}) AS n`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** A grant the user gave, or received as a user or through one of its own API keys. */
function naming(user: TenantId) {
  return sql`owner_id = ${user} OR (grantee_kind = 'user' AND grantee_id = ${user})
    OR (grantee_kind = 'api-key' AND grantee_id IN (SELECT id::text FROM api_keys WHERE user_id = ${user}))`;
}
