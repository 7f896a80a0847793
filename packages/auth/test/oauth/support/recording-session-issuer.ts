import type { IssuedSession, SessionClient, SessionIssuer, SessionSubject } from '../../../src/session-subject.js';

/** A SessionIssuer that hands out a fake token and remembers whom it issued sessions for. */
export function recordingSessionIssuer(): { issue: SessionIssuer; calls: { subject: SessionSubject; client: SessionClient }[] } {
  const calls: { subject: SessionSubject; client: SessionClient }[] = [];
  const issue: SessionIssuer = async (subject, client) => {
    calls.push({ subject, client });
    const session: IssuedSession = {
      token: `fake-session-${calls.length}`,
      jti: `fake-jti-${calls.length}`,
      tokenType: 'Bearer',
      expiresAt: new Date('2026-01-02T00:00:00.000Z'),
      userId: subject.userId,
      organizationId: subject.organizationId,
      scopes: subject.scopes,
    };
    return session;
  };
  return { issue, calls };
}
