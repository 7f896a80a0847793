import { type NewSession, Secret, type SessionRecord, type SessionStore } from '@memsvc/access';
import { type TenantId, toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { SessionTokens } from '../src/index.js';

/** The session port kept in a map: PgSessionStore is tested on both engines in store-pg. */
class MapSessionStore implements SessionStore {
  readonly sessions: SessionRecord[] = [];
  readonly denied = new Map<string, Date>();
  async create(session: NewSession): Promise<SessionRecord> {
    const record = {
      id: `s${this.sessions.length}`,
      userId: session.userId,
      jti: session.jti,
      createdAt: new Date(),
      expiresAt: session.expiresAt,
      revokedAt: null,
      userAgent: session.userAgent ?? null,
      ipAddress: session.ipAddress ?? null,
      apiKeyId: session.apiKeyId ?? null,
      oauthFamilyId: session.oauthFamilyId ?? null,
    };
    this.sessions.push(record);
    return record;
  }
  async isDenied(jti: string, now: Date): Promise<boolean> {
    const until = this.denied.get(jti);
    return until !== undefined && until.getTime() > now.getTime();
  }
  async deny(jti: string, expiresAt: Date): Promise<void> {
    this.denied.set(jti, expiresAt);
  }
  async denyAll(): Promise<number> {
    return 0;
  }
  async listActive(userId: TenantId): Promise<readonly SessionRecord[]> {
    return this.sessions.filter((session) => session.userId === userId);
  }
}

const SECRET = 'session-secret-of-at-least-32-chars!';
const alice = toTenantId('alice');

function tokens(clock = new ManualClock('2026-06-01T10:00:00.000Z'), store = new MapSessionStore()) {
  return { clock, store, sessions: new SessionTokens({ secret: new Secret(SECRET), expiresInSeconds: 3600, sessions: store, clock }) };
}

describe('session tokens', () => {
  it('issues an HS256 token with the subject’s claims and records the session', async () => {
    const { sessions, store } = tokens();
    const issued = await sessions.issue(
      { userId: alice, organizationId: null, scopes: ['memories:read'], origin: 'api-key', keyId: 'key-1' },
      { userAgent: 'curl/8' },
    );
    expect(issued).toMatchObject({ tokenType: 'Bearer', userId: 'alice', expiresAt: new Date('2026-06-01T11:00:00.000Z') });
    const header = JSON.parse(Buffer.from(issued.token.split('.')[0] ?? '', 'base64url').toString());
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = await sessions.verify(issued.token);
    expect(claims).toMatchObject({ userId: 'alice', scopes: ['memories:read'], origin: 'api-key', keyId: 'key-1', organizationId: null });
    // The key is recorded with the session, so revoking the key can end it.
    expect(store.sessions.map((session) => [session.jti, session.userAgent, session.apiKeyId])).toEqual([[claims?.jti, 'curl/8', 'key-1']]);
  });

  it('ends a session for an API key no later than the key itself; a key that outlives the lifetime changes nothing', async () => {
    const { sessions, store, clock } = tokens();
    const subject = { userId: alice, organizationId: null, scopes: ['memories:read' as const], origin: 'api-key' as const, keyId: 'k' };
    const shortKey = await sessions.issue({ ...subject, notAfter: new Date('2026-06-01T10:20:00.000Z') });
    expect(shortKey.expiresAt).toEqual(new Date('2026-06-01T10:20:00.000Z'));
    expect(store.sessions[0]?.expiresAt).toEqual(new Date('2026-06-01T10:20:00.000Z'));
    const longKey = await sessions.issue({ ...subject, notAfter: new Date('2026-07-01T00:00:00.000Z') });
    const noExpiry = await sessions.issue({ ...subject, notAfter: null });
    expect([longKey.expiresAt, noExpiry.expiresAt]).toEqual([new Date('2026-06-01T11:00:00.000Z'), new Date('2026-06-01T11:00:00.000Z')]);
    clock.advance(20 * 60_000);
    expect(await sessions.verify(shortKey.token)).toBeUndefined();
    expect(await sessions.verify(longKey.token)).toBeDefined();
  });

  it('refuses a remembered token once it expires, or once it is denied — the memory skips only the signature', async () => {
    const { sessions, clock } = tokens();
    const first = await sessions.issue({ userId: alice, organizationId: null, scopes: ['memories:read'], origin: 'github' });
    const second = await sessions.issue({ userId: alice, organizationId: null, scopes: ['memories:read'], origin: 'github' });
    expect(await sessions.verify(first.token)).toBeDefined();
    expect(await sessions.verify(second.token)).toBeDefined();
    expect(await sessions.revoke(second.token)).toBeDefined();
    expect(await sessions.verify(second.token)).toBeUndefined();
    clock.advance(3600_000 - 1);
    expect(await sessions.verify(first.token)).toBeDefined();
    clock.advance(1);
    expect(await sessions.verify(first.token)).toBeUndefined();
  });

  it('refuses what it did not sign: another secret, another algorithm, other claims, a token of another process’s secret', async () => {
    const { sessions, clock } = tokens();
    const now = Math.floor(clock.now().getTime() / 1000);
    const sign = (key: string, alg = 'HS256', audience = 'memsvc-api') =>
      new SignJWT({ scope: 'memories:read', via: 'api-key' })
        .setProtectedHeader({ alg })
        .setSubject('alice')
        .setIssuer('memsvc')
        .setAudience(audience)
        .setJti('j-1')
        .setIssuedAt(now)
        .setExpirationTime(now + 60)
        .sign(new TextEncoder().encode(key));
    expect(await sessions.verify(await sign(SECRET))).toBeDefined();
    expect(await sessions.verify(await sign('x'.repeat(40)))).toBeUndefined();
    expect(await sessions.verify(await sign(SECRET, 'HS384'))).toBeUndefined();
    expect(await sessions.verify(await sign(SECRET, 'HS256', 'elsewhere'))).toBeUndefined();
    expect(await sessions.verify('msk_not-a-jwt')).toBeUndefined();
    expect(await sessions.revoke('a.b.c')).toBeUndefined();
  });
});

describe('OAuth access tokens', () => {
  const RESOURCE = 'https://memory.example.test/mcp';
  const oauthTokens = () => {
    const clock = new ManualClock('2026-06-01T10:00:00.000Z');
    const store = new MapSessionStore();
    const secret = new Secret(SECRET);
    return {
      clock,
      store,
      sessions: new SessionTokens({ secret, expiresInSeconds: 7 * 86400, sessions: store, clock, resourceAudience: RESOURCE }),
    };
  };
  const binding = { clientId: 'mcp_client', audience: RESOURCE, familyId: '0190f3c2-7a1e-7c3b-9a5e-3f2b1c4d5e6f', lifetimeSeconds: 3600 };

  it('issues a session for the MCP resource, naming its client, living the OAuth lifetime, recorded with its family', async () => {
    const { sessions, store } = oauthTokens();
    const issued = await sessions.issue({
      userId: alice,
      organizationId: null,
      scopes: ['memories:read'],
      origin: 'api-key',
      keyId: 'k',
      oauth: binding,
    });
    expect(issued.expiresAt).toEqual(new Date('2026-06-01T11:00:00.000Z'));
    const payload = JSON.parse(Buffer.from(issued.token.split('.')[1] ?? '', 'base64url').toString());
    expect(payload).toMatchObject({ aud: RESOURCE, client_id: 'mcp_client', sub: 'alice', scope: 'memories:read' });
    expect(await sessions.verify(issued.token, ['access-token'])).toMatchObject({
      audience: RESOURCE,
      clientId: 'mcp_client',
      keyId: 'k',
      kind: 'access-token',
    });
    expect((store.sessions[0] as { oauthFamilyId?: string } | undefined)?.oauthFamilyId).toBe(binding.familyId);
    // A plain session is still for memsvc-api and names no client.
    const plain = await sessions.issue({ userId: alice, organizationId: null, scopes: ['memories:read'], origin: 'github' });
    expect(await sessions.verify(plain.token)).toMatchObject({ audience: 'memsvc-api', clientId: null, kind: 'session' });
  });

  it('refuses a token for another audience, an access token without its client, and a session that names one', async () => {
    const { sessions, clock } = oauthTokens();
    const now = Math.floor(clock.now().getTime() / 1000);
    const sign = (audience: string, claims: Record<string, unknown>) =>
      new SignJWT({ scope: 'memories:read', via: 'api-key', ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject('alice')
        .setIssuer('memsvc')
        .setAudience(audience)
        .setJti('jti-1')
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(new TextEncoder().encode(SECRET));
    const both = ['session', 'access-token'] as const;
    expect(await sessions.verify(await sign('https://other.example/mcp', { client_id: 'c' }), both)).toBeUndefined();
    expect(await sessions.verify(await sign(RESOURCE, {}), both)).toBeUndefined();
    expect(await sessions.verify(await sign('memsvc-api', { client_id: 'c' }), both)).toBeUndefined();
    expect(await sessions.verify(await sign(RESOURCE, { client_id: 'c' }), both)).toMatchObject({ clientId: 'c' });
    // Without a resource audience configured, an access token is refused outright.
    const { sessions: withoutOAuth } = tokens(clock);
    expect(await withoutOAuth.verify(await sign(RESOURCE, { client_id: 'c' }), both)).toBeUndefined();
  });

  it(
    verifies(
      'AUTH-SESSION-AUDIENCE',
      'each verifier takes only the kinds it names: a session by default, an access token only where asked',
    ),
    async () => {
      const { sessions } = oauthTokens();
      const access = await sessions.issue({
        userId: alice,
        organizationId: null,
        scopes: ['memories:read'],
        origin: 'github',
        oauth: binding,
      });
      const plain = await sessions.issue({ userId: alice, organizationId: null, scopes: ['memories:read'], origin: 'github' });
      expect(await sessions.verify(access.token)).toBeUndefined();
      expect(await sessions.verify(plain.token, ['access-token'])).toBeUndefined();
      expect(await sessions.verify(access.token, ['session', 'access-token'])).toMatchObject({ kind: 'access-token' });
      expect(await sessions.verify(plain.token, ['session', 'access-token'])).toMatchObject({ kind: 'session' });
      // Logging out with the wrong kind ends nothing.
      expect(await sessions.revoke(access.token)).toBeUndefined();
      expect(await sessions.verify(access.token, ['access-token'])).toBeDefined();
    },
  );

  it(
    verifies(
      'OAUTH-CONSENT-SIGN-IN',
      'a consent sign-in lives ten minutes at most and only the consent page takes it; a grant anchor no verifier takes',
    ),
    async () => {
      const { sessions, clock } = oauthTokens();
      const subject = { userId: alice, organizationId: null, scopes: ['memories:read'] as const, origin: 'github' as const };
      const signIn = await sessions.issue({ ...subject, purpose: 'consent-sign-in' });
      expect(signIn.expiresAt).toEqual(new Date('2026-06-01T10:10:00.000Z'));
      expect(await sessions.verify(signIn.token)).toBeUndefined();
      expect(await sessions.verify(signIn.token, ['session', 'access-token'])).toBeUndefined();
      expect(await sessions.verify(signIn.token, ['consent-sign-in'])).toMatchObject({ kind: 'consent-sign-in', jti: signIn.jti });
      const anchor = await sessions.issue({ ...subject, purpose: 'consent-grant' });
      expect(anchor.expiresAt).toEqual(new Date('2026-06-08T10:00:00.000Z'));
      expect(await sessions.verify(anchor.token, ['session', 'access-token', 'consent-sign-in'])).toBeUndefined();
      clock.advance(10 * 60 * 1000);
      expect(await sessions.verify(signIn.token, ['consent-sign-in'])).toBeUndefined();
    },
  );
});
