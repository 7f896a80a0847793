import { type Kysely, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/**
 * Ends the live sessions exchanged for the given API keys: marks them revoked and puts each `jti`
 * on the denylist until its token would have expired. Run inside the transaction that revokes the
 * keys, so no moment exists where a key is revoked and a session it opened still works. Returns
 * how many sessions ended.
 */
export async function endSessionsOfKeys(trx: Kysely<MemsvcDatabase>, keyIds: readonly string[], now: Date): Promise<number> {
  if (keyIds.length === 0) return 0;
  const ended = await trx
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('api_key_id', 'in', keyIds)
    .where('expires_at', '>', now)
    .where('revoked_at', 'is', null)
    .returning(['jti', 'expires_at'])
    .execute();
  if (ended.length > 0) {
    await trx
      .insertInto('jwt_denylist')
      .values(ended.map((session) => ({ jti: session.jti, expires_at: session.expires_at, created_at: now })))
      .onConflict((conflict) =>
        conflict.column('jti').doUpdateSet({ expires_at: sql<Date>`greatest(jwt_denylist.expires_at, excluded.expires_at)` }),
      )
      .execute();
  }
  return ended.length;
}
