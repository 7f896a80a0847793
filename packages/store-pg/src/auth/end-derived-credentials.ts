import type { Kysely } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { endLiveSessions } from './end-live-sessions.js';

/** Credentials that have just ended: revoked keys and ended sessions (by `jti`). */
export interface EndedCredentials {
  readonly keyIds?: readonly string[] | undefined;
  readonly sessionJtis?: readonly string[] | undefined;
}

/**
 * Ends everything made from credentials that have just ended, in the caller's transaction: the
 * sessions exchanged for a revoked key, the keys made from it (`parent_key_id`) or in an ended
 * session (`session_jti`), and so on down, however deep, until nothing new ends. Each round
 * touches only what is still live, so it stops; the revocation and everything it implies commit
 * together, and no moment exists where a credential is gone and one derived from it still works.
 * Returns how many keys and sessions it ended beyond the ones given.
 */
export async function endDerivedCredentials(
  trx: Kysely<MemsvcDatabase>,
  ended: EndedCredentials,
  now: Date,
): Promise<{ keys: number; sessions: number }> {
  let keyIds = [...(ended.keyIds ?? [])];
  let sessionJtis = [...(ended.sessionJtis ?? [])];
  const total = { keys: 0, sessions: 0 };
  while (keyIds.length > 0 || sessionJtis.length > 0) {
    const endedSessions = await endLiveSessions(trx, { apiKeyIds: keyIds }, now);
    total.sessions += endedSessions.length;
    const madeIn = [...sessionJtis, ...endedSessions];
    let children = trx.updateTable('api_keys').set({ revoked_at: now }).where('revoked_at', 'is', null);
    children = children.where((eb) =>
      eb.or([
        ...(keyIds.length > 0 ? [eb('parent_key_id', 'in', keyIds)] : []),
        ...(madeIn.length > 0 ? [eb('session_jti', 'in', madeIn)] : []),
      ]),
    );
    const revoked = await children.returning('id').execute();
    total.keys += revoked.length;
    keyIds = revoked.map((key) => key.id);
    sessionJtis = [];
  }
  return total;
}
