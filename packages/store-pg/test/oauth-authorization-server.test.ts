import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AuthorizationGrant, CodeGrant, PendingAuthorization } from '@memsvc/access';
import type { TenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import type { MemsvcStore } from '../src/index.js';
import { failureOf } from './support/code-of.js';
import { describeEachEngine } from './support/each-engine.js';
import { useSuiteStore } from './support/suite-store.js';

const MINUTE = 60_000;
const START = '2026-05-01T09:00:00.000Z';
const RESOURCE = 'https://memory.example.test/mcp';
const TABLES = ['oauth_clients', 'oauth_pending_authorizations', 'oauth_codes', 'oauth_refresh_families', 'sessions', 'jwt_denylist'];

const digest = () => createHash('sha256').update(randomBytes(32)).digest('hex');
const challenge = () => createHash('sha256').update(randomBytes(32)).digest('base64url');

function pending(overrides: Partial<PendingAuthorization> = {}): PendingAuthorization {
  return {
    clientId: 'client-1',
    redirectUri: 'https://app.example.com/callback',
    codeChallenge: challenge(),
    resource: RESOURCE,
    scopes: ['memories:read'],
    state: 'opaque-state',
    ...overrides,
  };
}

const GRANT: AuthorizationGrant = {
  clientId: 'client-1',
  resource: RESOURCE,
  scopes: ['memories:read', 'memories:write'],
  userId: 'alice' as TenantId,
  organizationId: null,
  origin: 'api-key',
  apiKeyId: null,
  notAfter: null,
  signInJti: null,
};

function code(overrides: Partial<CodeGrant> = {}): CodeGrant {
  return { ...GRANT, redirectUri: 'https://app.example.com/callback', codeChallenge: challenge(), ...overrides };
}

describeEachEngine('OAuth authorization server storage', (engine) => {
  const clock = new ManualClock(START);
  const opened = useSuiteStore(engine, clock, { tables: TABLES, start: START });
  let store: MemsvcStore;
  beforeEach(() => {
    store = opened.current;
  });
  const rows = async (table: string) =>
    (await sql<{ count: number }>`SELECT count(*)::int AS count FROM ${sql.table(table)}`.execute(store.connection.db)).rows[0]?.count;
  const inMinutes = (minutes: number) => new Date(clock.now().getTime() + minutes * MINUTE);
  const newFamily = (id: string = randomUUID()) => ({ id, tokenHash: digest(), expiresAt: inMinutes(30 * 24 * 60) });

  describe('clients', () => {
    it('registers a client and finds it by id; an unknown id finds nothing', async () => {
      const registered = await store.oauthClients.register({
        clientId: 'dcr-1',
        clientName: ' Claude\u001b[31m ',
        clientUri: 'https://claude.ai',
        redirectUris: ['https://claude.ai/api/mcp/auth_callback', 'http://127.0.0.1:33418/callback'],
      });
      expect(registered).toEqual({
        clientId: 'dcr-1',
        clientName: 'Claude[31m',
        clientUri: 'https://claude.ai',
        redirectUris: ['https://claude.ai/api/mcp/auth_callback', 'http://127.0.0.1:33418/callback'],
        createdAt: new Date(START),
      });
      expect(await store.oauthClients.find('dcr-1')).toEqual(registered);
      expect(await store.oauthClients.find('dcr-2')).toBeUndefined();
    });

    it(
      verifies(
        'OAUTH-REDIRECT-URI',
        'a client with a javascript:, data:, fragment, credential-carrying or non-loopback http redirect URI is refused naming the field, and nothing is stored',
      ),
      async () => {
        for (const uri of [
          'javascript:alert(1)',
          'data:text/html,hi',
          'https://app.example.com/cb#frag',
          'https://user:pw@app.example.com/cb',
          'http://app.example.com/cb',
          'not a uri',
          '',
        ]) {
          expect(
            await failureOf(store.oauthClients.register({ clientId: 'x', clientName: null, clientUri: null, redirectUris: [uri] })),
            uri,
          ).toEqual(['INVALID_INPUT', 'redirectUris']);
        }
        expect(
          await failureOf(store.oauthClients.register({ clientId: 'x', clientName: null, clientUri: null, redirectUris: [] })),
        ).toEqual(['INVALID_INPUT', 'redirectUris']);
        expect(await rows('oauth_clients')).toBe(0);
      },
    );
  });

  describe('pending authorizations and codes', () => {
    it(
      verifies(
        'OAUTH-CODE-ONCE',
        'a pending request can be read until consumed once; a code is consumed once with its whole binding; both expire by the clock',
      ),
      async () => {
        const handle = digest();
        const request = pending();
        await store.oauthAuthorizations.savePending(handle, request, inMinutes(10));
        expect(await store.oauthAuthorizations.findPending(handle, clock.now())).toEqual(request);
        expect(await store.oauthAuthorizations.consumePending(handle, clock.now())).toEqual(request);
        expect(await store.oauthAuthorizations.consumePending(handle, clock.now())).toBeUndefined();

        const codeHash = digest();
        const grant = code({ apiKeyId: randomUUID(), notAfter: inMinutes(90), signInJti: randomUUID() });
        await store.oauthAuthorizations.saveCode(codeHash, grant, inMinutes(1));
        const stored = await store.connection.db.selectFrom('oauth_codes').selectAll().executeTakeFirstOrThrow();
        expect(stored.code_hash).toBe(codeHash);
        const familyId = randomUUID();
        expect(await store.oauthAuthorizations.consumeCode(codeHash, newFamily(familyId), clock.now())).toEqual({ kind: 'granted', grant });
        // A second use is recognised, with the family the first one was redeemed for.
        expect(await store.oauthAuthorizations.consumeCode(codeHash, newFamily(), clock.now())).toEqual({ kind: 'reused', familyId });
        expect(await store.oauthAuthorizations.consumeCode(digest(), newFamily(), clock.now())).toEqual({ kind: 'unknown' });
        expect(await store.oauthAuthorizations.consumeCode('not a digest', newFamily(), clock.now())).toEqual({ kind: 'unknown' });

        // Expired at the instant of expiry, and deleted all the same.
        const late = digest();
        await store.oauthAuthorizations.saveCode(late, code(), inMinutes(1));
        const lateRequest = digest();
        await store.oauthAuthorizations.savePending(lateRequest, pending(), inMinutes(1));
        clock.advance(MINUTE);
        expect(await store.oauthAuthorizations.findPending(lateRequest, clock.now())).toBeUndefined();
        expect(await store.oauthAuthorizations.consumePending(lateRequest, clock.now())).toBeUndefined();
        expect(await store.oauthAuthorizations.consumeCode(late, newFamily(), clock.now())).toEqual({ kind: 'unknown' });
        // The expired code is gone; the redeemed one stays until its minute is up (then the sweep takes it).
        expect(await rows('oauth_codes')).toBe(1);
        expect(await rows('oauth_pending_authorizations')).toBe(0);
      },
    );

    it('of racing token requests with one code, exactly one gets the grant and the others see it reused', async () => {
      const codeHash = digest();
      await store.oauthAuthorizations.saveCode(codeHash, code(), inMinutes(1));
      const results = await Promise.all(
        Array.from({ length: 6 }, () => store.oauthAuthorizations.consumeCode(codeHash, newFamily(), clock.now())),
      );
      expect(results.filter((result) => result.kind === 'granted')).toHaveLength(1);
      expect(results.filter((result) => result.kind === 'reused')).toHaveLength(5);
    });

    it('refuses bad input with INVALID_INPUT naming the field, and writes nothing', async () => {
      const pendingCases: [string, PendingAuthorization, Date, string][] = [
        ['abc', pending(), inMinutes(5), 'handle'],
        [digest(), pending({ codeChallenge: 'plain-verifier' }), inMinutes(5), 'codeChallenge'],
        [digest(), pending({ redirectUri: 'javascript:alert(1)' }), inMinutes(5), 'redirectUri'],
        [digest(), pending({ scopes: ['everything' as never] }), inMinutes(5), 'scopes'],
        [digest(), pending({ state: 'a\nb' }), inMinutes(5), 'state'],
        [digest(), pending({ resource: 'not a uri' }), inMinutes(5), 'resource'],
        [digest(), pending(), clock.now(), 'expiresAt'],
      ];
      for (const [hash, request, expiresAt, field] of pendingCases) {
        expect(await failureOf(store.oauthAuthorizations.savePending(hash, request, expiresAt)), field).toEqual(['INVALID_INPUT', field]);
      }
      const codeCases: [CodeGrant, string][] = [
        [code({ userId: 'not a tenant!' as TenantId }), 'userId'],
        [code({ origin: 'password' as never }), 'origin'],
        [code({ apiKeyId: 'key-1' }), 'apiKeyId'],
        [code({ clientId: '' }), 'clientId'],
      ];
      for (const [grant, field] of codeCases) {
        expect(await failureOf(store.oauthAuthorizations.saveCode(digest(), grant, inMinutes(1))), field).toEqual(['INVALID_INPUT', field]);
      }
      expect(await rows('oauth_pending_authorizations')).toBe(0);
      expect(await rows('oauth_codes')).toBe(0);
    });
  });

  it('the auth-store sweep removes expired requests, codes and refresh families (their tokens with them)', async () => {
    await store.oauthAuthorizations.savePending(digest(), pending(), inMinutes(10));
    await store.oauthAuthorizations.saveCode(digest(), code(), inMinutes(1));
    await store.oauthRefresh.startFamily(randomUUID(), GRANT, digest(), inMinutes(60));
    const live = randomUUID();
    await store.oauthRefresh.startFamily(live, GRANT, digest(), inMinutes(24 * 60));
    clock.advance(60 * MINUTE);
    const swept = await store.lifecycle.sweepAuthStore(clock.now());
    expect(swept.oauthStates).toBe(3);
    expect([
      await rows('oauth_pending_authorizations'),
      await rows('oauth_codes'),
      await rows('oauth_refresh_families'),
      await rows('oauth_refresh_tokens'),
    ]).toEqual([0, 0, 1, 1]);
  });

  describe('refresh families', () => {
    const sessionOf = async (familyId: string) => {
      const jti = randomUUID();
      await store.sessions.create({ userId: 'alice' as TenantId, jti, expiresAt: inMinutes(60), oauthFamilyId: familyId });
      return jti;
    };

    it(
      verifies(
        'OAUTH-REFRESH-ROTATION',
        'each use rotates the token; a rotated one presented again revokes the family, its successor and its live access tokens',
      ),
      async () => {
        const familyId = randomUUID();
        const first = digest();
        const familyEnds = inMinutes(30 * 24 * 60);
        await store.oauthRefresh.startFamily(familyId, GRANT, first, familyEnds);
        const access = await sessionOf(familyId);
        const otherFamily = randomUUID();
        await store.oauthRefresh.startFamily(otherFamily, GRANT, digest(), inMinutes(60));
        const bystander = await sessionOf(otherFamily);

        const second = digest();
        expect(await store.oauthRefresh.rotate(first, second, clock.now())).toEqual({
          kind: 'rotated',
          familyId,
          grant: { ...GRANT, notAfter: familyEnds },
        });
        expect(await store.oauthRefresh.rotate(first, digest(), clock.now())).toEqual({ kind: 'reused', familyId });
        expect(await store.sessions.isDenied(access, clock.now())).toBe(true);
        expect(await store.sessions.isDenied(bystander, clock.now())).toBe(false);
        // The successor the thief or the client holds is dead too.
        expect(await store.oauthRefresh.rotate(second, digest(), clock.now())).toEqual({ kind: 'reused', familyId });
        const family = await store.connection.db
          .selectFrom('oauth_refresh_families')
          .selectAll()
          .where('id', '=', familyId)
          .executeTakeFirstOrThrow();
        expect(family.revoked_at).toEqual(clock.now());
        // Only hashes are stored.
        const tokens = await store.connection.db.selectFrom('oauth_refresh_tokens').select('token_hash').execute();
        expect(tokens.map((row) => row.token_hash).sort()).toEqual(expect.arrayContaining([first, second]));
      },
    );

    it('logging out the sign-in a grant was consented in, or ending every session of its user, revokes the family and its access tokens', async () => {
      const signIn = randomUUID();
      await store.sessions.create({ userId: 'alice' as TenantId, jti: signIn, expiresAt: inMinutes(60) });
      const familyId = randomUUID();
      await store.oauthRefresh.startFamily(familyId, { ...GRANT, origin: 'github', signInJti: signIn }, digest(), inMinutes(60));
      const access = await sessionOf(familyId);
      await store.sessions.deny(signIn, inMinutes(60), clock.now());
      expect(await store.sessions.isDenied(access, clock.now())).toBe(true);
      expect(await store.oauthRefresh.rotate(digest(), digest(), clock.now())).toEqual({ kind: 'unknown' });

      const second = randomUUID();
      await store.sessions.create({ userId: 'alice' as TenantId, jti: second, expiresAt: inMinutes(60) });
      const otherFamily = randomUUID();
      const token = digest();
      await store.oauthRefresh.startFamily(otherFamily, { ...GRANT, origin: 'google', signInJti: second }, token, inMinutes(60));
      const otherAccess = await sessionOf(otherFamily);
      await store.sessions.denyAll('alice' as TenantId, clock.now());
      expect(await store.sessions.isDenied(otherAccess, clock.now())).toBe(true);
      expect(await store.oauthRefresh.rotate(token, digest(), clock.now())).toEqual({ kind: 'reused', familyId: otherFamily });
    });

    it('an unknown token, or one of an expired family, rotates nothing', async () => {
      expect(await store.oauthRefresh.rotate(digest(), digest(), clock.now())).toEqual({ kind: 'unknown' });
      expect(await store.oauthRefresh.rotate('short', digest(), clock.now())).toEqual({ kind: 'unknown' });
      const token = digest();
      await store.oauthRefresh.startFamily(randomUUID(), GRANT, token, inMinutes(5));
      clock.advance(5 * MINUTE);
      expect(await store.oauthRefresh.rotate(token, digest(), clock.now())).toEqual({ kind: 'unknown' });
    });

    it('of racing refreshes with one token, one rotates and the other revokes the family', async () => {
      const familyId = randomUUID();
      const token = digest();
      await store.oauthRefresh.startFamily(familyId, GRANT, token, inMinutes(60));
      const results = await Promise.all([
        store.oauthRefresh.rotate(token, digest(), clock.now()),
        store.oauthRefresh.rotate(token, digest(), clock.now()),
      ]);
      expect(results.map((result) => result.kind).sort()).toEqual(['reused', 'rotated']);
    });

    it('refuses a bad family id, token hash or grant naming the field, writing nothing', async () => {
      expect(await failureOf(store.oauthRefresh.startFamily('f-1', GRANT, digest(), inMinutes(5)))).toEqual(['INVALID_INPUT', 'familyId']);
      expect(await failureOf(store.oauthRefresh.startFamily(randomUUID(), GRANT, 'raw-token', inMinutes(5)))).toEqual([
        'INVALID_INPUT',
        'refreshToken',
      ]);
      expect(await failureOf(store.oauthRefresh.startFamily(randomUUID(), { ...GRANT, scopes: [] }, digest(), inMinutes(5)))).toEqual([
        'INVALID_INPUT',
        'scopes',
      ]);
      expect(await rows('oauth_refresh_families')).toBe(0);
    });
  });
});
