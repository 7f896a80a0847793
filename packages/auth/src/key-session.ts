import type { ApiKeyRecord, Scope } from '@memsvc/access';
import { isMemsvcError } from '@memsvc/core';
import type { IssuedSession, SessionClient } from './session-subject.js';
import type { SessionTokens } from './session-tokens.js';

/**
 * A session exchanged for an API key (`POST /auth/session`, the dashboard's sign-in with a key):
 * the key's user and organization, the scopes asked for (at most the key's), ending no later than
 * the key. Undefined when the key was revoked or expired between its check and the session's
 * record: the store reads the key again, locked, as it writes the session, so a key revoked while
 * the request was in flight opens nothing.
 */
export async function issueKeySession(
  sessions: SessionTokens,
  key: ApiKeyRecord,
  scopes: readonly Scope[],
  client: SessionClient,
): Promise<IssuedSession | undefined> {
  try {
    return await sessions.issue(
      { userId: key.userId, organizationId: key.organizationId, scopes, origin: 'api-key', keyId: key.id, notAfter: key.expiresAt },
      client,
    );
  } catch (error) {
    if (isMemsvcError(error, 'UNAUTHENTICATED')) return undefined;
    throw error;
  }
}
