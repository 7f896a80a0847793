import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AuthorizationGrant, CodeGrant } from '@memsvc/access';
import type { TenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { sql } from 'kysely';
import { beforeEach, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import type { MemsvcStore } from '../src/index.js';
import { failureOf } from './support/code-of.js';
import { describeEachEngine } from './support/each-engine.js';
import { useSuiteStore } from './support/suite-store.js';

const MINUTE = 60_000;
const START = '2026-05-01T09:00:00.000Z';
const TABLES = ['oauth_codes', 'oauth_refresh_families', 'sessions', 'jwt_denylist'];
const ROUNDS = 20;

const digest = () => createHash('sha256').update(randomBytes(32)).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const GRANT: AuthorizationGrant = {
  clientId: 'client-1',
  resource: 'https://memory.example.test/mcp',
  scopes: ['memories:read', 'memories:write'],
  userId: 'alice' as TenantId,
  organizationId: null,
  origin: 'github',
  apiKeyId: null,
  notAfter: null,
  signInJti: null,
};
const CODE: CodeGrant = {
  ...GRANT,
  redirectUri: 'https://app.example.com/callback',
  codeChallenge: createHash('sha256').update('verifier').digest('base64url'),
};

/**
 * Issue 51, finding 3: what a code's or refresh token's first use issues is tied, in the
 * database, to the decision that a second use revokes it. The authorization server's races are
 * proved in packages/auth (token-replay-races.test.ts); these are the store's halves.
 */
describeEachEngine('OAuth replays, atomic in the store', (engine) => {
  const clock = new ManualClock(START);
  const opened = useSuiteStore(engine, clock, { tables: TABLES, start: START });
  let store: MemsvcStore;
  beforeEach(() => {
    store = opened.current;
  });
  const inMinutes = (minutes: number) => new Date(clock.now().getTime() + minutes * MINUTE);
  const newFamily = (id: string = randomUUID()) => ({ id, tokenHash: digest(), expiresAt: inMinutes(30 * 24 * 60) });
  const family = (id: string) =>
    store.connection.db.selectFrom('oauth_refresh_families').selectAll().where('id', '=', id).executeTakeFirst();
  const issueFrom = async (familyId: string, userId = 'alice') => {
    const jti = randomUUID();
    await store.sessions.create({ userId: userId as TenantId, jti, expiresAt: inMinutes(60), oauthFamilyId: familyId });
    return jti;
  };

  it(
    verifies(
      'OAUTH-CODE-REPLAY-ATOMIC',
      'redeeming a code starts its family with its first token in the same transaction; a replay revokes that family and its live access tokens',
    ),
    async () => {
      const codeHash = digest();
      await store.oauthAuthorizations.saveCode(codeHash, { ...CODE, notAfter: inMinutes(90) }, inMinutes(1));
      const started = newFamily();
      expect((await store.oauthAuthorizations.consumeCode(codeHash, started, clock.now())).kind).toBe('granted');
      // The family ends no later than the grant's notAfter.
      expect(await family(started.id)).toMatchObject({ client_id: 'client-1', expires_at: inMinutes(90), revoked_at: null });
      const access = await issueFrom(started.id);

      expect(await store.oauthAuthorizations.consumeCode(codeHash, newFamily(), clock.now())).toEqual({
        kind: 'reused',
        familyId: started.id,
      });
      expect((await family(started.id))?.revoked_at).toEqual(clock.now());
      expect(await store.sessions.isDenied(access, clock.now())).toBe(true);
      expect(await store.oauthRefresh.rotate(started.tokenHash, digest(), clock.now())).toEqual({ kind: 'reused', familyId: started.id });
      // The replay's own family id was never started.
      expect(await store.connection.db.selectFrom('oauth_refresh_families').select('id').execute()).toEqual([{ id: started.id }]);
    },
  );

  it(
    verifies(
      'OAUTH-CODE-REPLAY-ATOMIC',
      `of ${ROUNDS} rounds of a code redeemed twice at once, every family is revoked once both have returned`,
    ),
    async () => {
      const codes = Array.from({ length: ROUNDS }, () => digest());
      for (const codeHash of codes) await store.oauthAuthorizations.saveCode(codeHash, CODE, inMinutes(1));
      const rounds = await Promise.all(
        codes.map((codeHash) =>
          Promise.all([
            store.oauthAuthorizations.consumeCode(codeHash, newFamily(), clock.now()),
            store.oauthAuthorizations.consumeCode(codeHash, newFamily(), clock.now()),
          ]),
        ),
      );
      for (const outcomes of rounds) expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['granted', 'reused']);
      const families = await store.connection.db.selectFrom('oauth_refresh_families').select('revoked_at').execute();
      expect(families).toHaveLength(ROUNDS);
      expect(families.filter((row) => row.revoked_at === null)).toEqual([]);
    },
  );

  it(
    verifies(
      'OAUTH-REFRESH-REPLAY-ATOMIC',
      "no access token is recorded from a revoked, expired, unknown or another user's family: UNAUTHENTICATED naming oauthFamilyId, nothing written",
    ),
    async () => {
      const revoked = randomUUID();
      await store.oauthRefresh.startFamily(revoked, GRANT, digest(), inMinutes(60));
      await store.oauthRefresh.revokeFamily(revoked, clock.now());
      const short = randomUUID();
      await store.oauthRefresh.startFamily(short, GRANT, digest(), inMinutes(5));
      const bobs = randomUUID();
      await store.oauthRefresh.startFamily(bobs, { ...GRANT, userId: 'bob' as TenantId }, digest(), inMinutes(60));
      clock.advance(5 * MINUTE);
      for (const familyId of [revoked, short, bobs, randomUUID()]) {
        expect(await failureOf(issueFrom(familyId)), familyId).toEqual(['UNAUTHENTICATED', 'oauthFamilyId']);
      }
      expect(await store.connection.db.selectFrom('sessions').select('id').execute()).toEqual([]);
      expect(await issueFrom(bobs, 'bob')).toBeTypeOf('string');
    },
  );

  it(
    verifies(
      'OAUTH-REFRESH-REPLAY-ATOMIC',
      `of ${ROUNDS} rounds of an access token issued while its family is revoked (both orders), none is live afterwards`,
    ),
    async () => {
      const families = Array.from({ length: ROUNDS }, () => randomUUID());
      for (const familyId of families) await store.oauthRefresh.startFamily(familyId, GRANT, digest(), inMinutes(60));
      const issued = await Promise.all(
        families.map(async (familyId, round) => {
          // Started in both orders: PGlite runs one transaction at a time, in the order they begin.
          const revoke = () => store.oauthRefresh.revokeFamily(familyId, clock.now());
          const [session] =
            round % 2 === 0
              ? await Promise.allSettled([issueFrom(familyId), revoke()])
              : (await Promise.allSettled([revoke(), issueFrom(familyId)])).reverse();
          return session?.status === 'fulfilled' ? session.value : undefined;
        }),
      );
      const live: string[] = [];
      for (const jti of issued) if (jti !== undefined && !(await store.sessions.isDenied(jti, clock.now()))) live.push(jti);
      expect(live).toEqual([]);
    },
  );

  it.runIf(engine.supportsSecondConnection)(
    'an access token issued while its family is being revoked on another connection waits for the revocation, then is refused (PostgreSQL only: a PGlite instance has one connection)',
    async () => {
      const familyId = randomUUID();
      await store.oauthRefresh.startFamily(familyId, GRANT, digest(), inMinutes(60));
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let holding!: () => void;
      const held = new Promise<void>((resolve) => {
        holding = resolve;
      });
      const revocation = store.connection.db.connection().execute(async (connection) => {
        await sql`BEGIN`.execute(connection);
        await sql`UPDATE oauth_refresh_families SET revoked_at = ${clock.now()} WHERE id = ${familyId}`.execute(connection);
        holding();
        await released;
        await sql`COMMIT`.execute(connection);
      });
      await held;
      const issuing = issueFrom(familyId).then(
        () => 'issued',
        (error: { code: string; data: { field: string } }) => `${error.code} ${error.data.field}`,
      );
      let settled = false;
      void issuing.finally(() => {
        settled = true;
      });
      // The issuing transaction comes to wait on the family row the revocation holds (without
      // the share lock it would not wait: it would record the session and settle at once).
      let waited = false;
      for (let polls = 0; polls < 500 && !waited && !settled; polls++) {
        const waiting = await sql<{ count: number }>`
          SELECT count(*)::int AS count FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(store.connection.db);
        waited = (waiting.rows[0]?.count ?? 0) > 0;
        if (!waited) await sleep(10);
      }
      release();
      await revocation;
      expect(await issuing).toBe('UNAUTHENTICATED oauthFamilyId');
      expect(waited).toBe(true);
    },
  );

  it(
    verifies(
      'OAUTH-REFRESH-VALIDATE-FIRST',
      'peek finds the grant of an unused token of a live family and changes nothing; a used token, or one of a revoked or expired family, finds nothing',
    ),
    async () => {
      const familyId = randomUUID();
      const first = digest();
      const familyEnds = inMinutes(60);
      await store.oauthRefresh.startFamily(familyId, GRANT, first, familyEnds);
      const live = { familyId, grant: { ...GRANT, notAfter: familyEnds } };
      expect(await store.oauthRefresh.peek(first, clock.now())).toEqual(live);
      expect(await store.oauthRefresh.peek(first, clock.now())).toEqual(live);
      const second = digest();
      expect((await store.oauthRefresh.rotate(first, second, clock.now())).kind).toBe('rotated');
      expect(await store.oauthRefresh.peek(first, clock.now())).toBeUndefined();
      expect(await store.oauthRefresh.peek(second, clock.now())).toEqual(live);
      expect(await store.oauthRefresh.peek('not a digest', clock.now())).toBeUndefined();
      expect(await store.oauthRefresh.peek(digest(), clock.now())).toBeUndefined();
      expect(await store.oauthRefresh.peek(second, familyEnds)).toBeUndefined();
      await store.oauthRefresh.revokeFamily(familyId, clock.now());
      expect(await store.oauthRefresh.peek(second, clock.now())).toBeUndefined();
    },
  );

  it('refuses a bad family for a code naming the field, and leaves the code unredeemed', async () => {
    const codeHash = digest();
    await store.oauthAuthorizations.saveCode(codeHash, CODE, inMinutes(1));
    const cases: [ReturnType<typeof newFamily>, string][] = [
      [{ ...newFamily(), id: 'family-1' }, 'familyId'],
      [{ ...newFamily(), tokenHash: 'raw-token' }, 'refreshToken'],
      [{ ...newFamily(), expiresAt: clock.now() }, 'expiresAt'],
    ];
    for (const [bad, field] of cases) {
      expect(await failureOf(store.oauthAuthorizations.consumeCode(codeHash, bad, clock.now())), field).toEqual(['INVALID_INPUT', field]);
    }
    expect(await store.connection.db.selectFrom('oauth_codes').select('redeemed_at').execute()).toEqual([{ redeemed_at: null }]);
    expect(await store.connection.db.selectFrom('oauth_refresh_families').select('id').execute()).toEqual([]);
  });
});
