import type { Grantee } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import { isUuid } from '../ids/uuid-v7.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/**
 * Whether a grantee is someone memsvc knows, for the operator CLI to warn of a likely typo. Never
 * asked when a grant is made (R-GRANT-NO-ENUMERATION): a grant's answer must not tell a tenant
 * which ids exist. A user is known by a login identity, an API
 * key, a membership or memories of its own; an organization by its row; an API key while it is
 * live (neither revoked nor expired).
 */
export async function granteeExists(db: Kysely<MemsvcDatabase>, grantee: Grantee, now: Date): Promise<boolean> {
  if (grantee.kind === 'organization') {
    if (!isUuid(grantee.id)) return false;
    return (await db.selectFrom('organizations').select('id').where('id', '=', grantee.id).executeTakeFirst()) !== undefined;
  }
  if (grantee.kind === 'api-key') {
    if (!isUuid(grantee.id)) return false;
    const key = await db
      .selectFrom('api_keys')
      .select('id')
      .where('id', '=', grantee.id)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
    return key !== undefined;
  }
  const { rows } = await sql<{ known: boolean }>`
    SELECT EXISTS (SELECT 1 FROM user_identities WHERE user_id = ${grantee.id})
        OR EXISTS (SELECT 1 FROM api_keys WHERE user_id = ${grantee.id})
        OR EXISTS (SELECT 1 FROM organization_members WHERE user_id = ${grantee.id})
        OR EXISTS (SELECT 1 FROM memories WHERE user_id = ${grantee.id} AND deleted_at IS NULL) AS known`.execute(db);
  return rows[0]?.known === true;
}
