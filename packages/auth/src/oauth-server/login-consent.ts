import type { SessionTokens } from '../session-tokens.js';
import type { ConsentSigner } from './consent-signer.js';

/**
 * The signer of a consent given with a GitHub or Google sign-in on the consent page, made ready
 * for its grant. That sign-in lives ten minutes at most and ends with the decision, so the grant
 * cannot hang on it: a session of its own is recorded for the grant (purpose `consent-grant`,
 * living JWT_EXPIRES_IN as a login session does; its token is never handed out and no verifier
 * accepts one). The grant lasts no longer than that session and ends with it: when every session
 * of the person is ended, the account is blocked, or the person ends it on the dashboard.
 */
export async function anchoredLoginSigner(sessions: SessionTokens, signer: ConsentSigner): Promise<ConsentSigner> {
  const anchor = await sessions.issue({
    userId: signer.userId,
    organizationId: signer.organizationId,
    scopes: signer.scopes,
    origin: signer.origin,
    purpose: 'consent-grant',
  });
  return { ...signer, notAfter: anchor.expiresAt, signInJti: anchor.jti };
}
