import { randomBytes } from 'node:crypto';
import type { PendingLogin, VerifiedIdentity } from '@memsvc/access';
import type { TenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { sql } from 'kysely';
import { beforeEach, expect, it } from 'vitest';
import type { MemsvcStore } from '../src/index.js';
import { codeOf, failureOf } from './support/code-of.js';
import { describeEachEngine } from './support/each-engine.js';
import { useSuiteStore } from './support/suite-store.js';

const MINUTE = 60_000;
const START = '2026-05-01T09:00:00.000Z';

/**
 * Opens `count` pooled connections before a race: without it, on PostgreSQL the first racer runs
 * alone while the others wait for their connections to open, and a racy store would pass.
 * (PGlite has one connection and interleaves the racers' statements instead.)
 */
async function openConnections(store: MemsvcStore, count: number): Promise<void> {
  await Promise.all(Array.from({ length: count }, () => sql`SELECT pg_sleep(0.02)`.execute(store.connection.db)));
}

/** The SHA-256 (hex) of a fresh random state, as the login route stores one. */
const newStateHash = () => randomBytes(32).toString('hex');

/** A login as the route starts one: a PKCE verifier of 32 random bytes (43 base64url characters). */
function newLogin(overrides: Partial<PendingLogin> = {}): PendingLogin {
  return { provider: 'github', codeVerifier: randomBytes(32).toString('base64url'), redirectTo: '/dashboard', ...overrides };
}

describeEachEngine('OAuth states', (engine) => {
  const clock = new ManualClock(START);
  const opened = useSuiteStore(engine, clock, { tables: ['oauth_states', 'user_identities'], start: START });
  let store: MemsvcStore;
  beforeEach(() => {
    store = opened.current;
  });

  const inTenMinutes = () => new Date(clock.now().getTime() + 10 * MINUTE);
  const rowCount = async () =>
    (await sql<{ count: number }>`SELECT count(*)::int AS count FROM oauth_states`.execute(store.connection.db)).rows[0]?.count;

  it('a saved login is consumed once: the second consume of the same state finds nothing', async () => {
    const stateHash = newStateHash();
    const login = newLogin();
    await store.oauthStates.save(stateHash, login, inTenMinutes());
    const stored = await store.connection.db.selectFrom('oauth_states').selectAll().executeTakeFirstOrThrow();
    expect(stored).toEqual({
      state_hash: stateHash,
      provider: 'github',
      code_verifier: login.codeVerifier,
      redirect_to: '/dashboard',
      created_at: new Date(START),
      expires_at: new Date('2026-05-01T09:10:00.000Z'),
    });
    clock.advance(MINUTE);
    expect(await store.oauthStates.consume(stateHash, 'github', clock.now())).toEqual(login);
    expect(await store.oauthStates.consume(stateHash, 'github', clock.now())).toBeUndefined();
    expect(await rowCount()).toBe(0);
    const withoutRedirect = newLogin({ provider: 'google', redirectTo: null });
    const other = newStateHash();
    await store.oauthStates.save(other, withoutRedirect, inTenMinutes());
    expect(await store.oauthStates.consume(other, 'google', clock.now())).toEqual(withoutRedirect);
  });

  it("a callback of another provider finds nothing and leaves the state for its own provider's callback", async () => {
    const stateHash = newStateHash();
    const login = newLogin({ provider: 'google' });
    await store.oauthStates.save(stateHash, login, inTenMinutes());
    expect(await store.oauthStates.consume(stateHash, 'github', clock.now())).toBeUndefined();
    expect(await rowCount()).toBe(1);
    expect(await store.oauthStates.consume(stateHash, 'google', clock.now())).toEqual(login);
  });

  it('an expired state finds nothing, from the instant it expires, and is deleted all the same', async () => {
    const stateHash = newStateHash();
    const expiresAt = inTenMinutes();
    await store.oauthStates.save(stateHash, newLogin(), expiresAt);
    expect(await store.oauthStates.consume(stateHash, 'github', expiresAt)).toBeUndefined();
    expect(await rowCount()).toBe(0);
  });

  it('an unknown or malformed state finds nothing, without touching other states', async () => {
    await store.oauthStates.save(newStateHash(), newLogin(), inTenMinutes());
    for (const stateHash of [newStateHash(), '', 'ABC', newStateHash().toUpperCase(), `${newStateHash()}\u0000`]) {
      expect(await store.oauthStates.consume(stateHash, 'github', clock.now()), stateHash).toBeUndefined();
    }
    expect(await store.oauthStates.consume(newStateHash(), 'gitlab' as never, clock.now())).toBeUndefined();
    expect(await rowCount()).toBe(1);
  });

  it('of concurrent callbacks with one state, exactly one gets the login', async () => {
    const stateHash = newStateHash();
    const login = newLogin();
    await store.oauthStates.save(stateHash, login, inTenMinutes());
    await openConnections(store, 8);
    const results = await Promise.all(Array.from({ length: 8 }, () => store.oauthStates.consume(stateHash, 'github', clock.now())));
    expect(results.filter((result) => result !== undefined)).toEqual([login]);
    expect(await rowCount()).toBe(0);
  });

  it('refuses bad input with INVALID_INPUT naming the field, and writes nothing', async () => {
    const cases: [string, PendingLogin, Date, string][] = [
      ['abc', newLogin(), inTenMinutes(), 'state'],
      [newStateHash().toUpperCase(), newLogin(), inTenMinutes(), 'state'],
      [newStateHash(), newLogin({ provider: 'gitlab' as never }), inTenMinutes(), 'provider'],
      [newStateHash(), newLogin({ codeVerifier: 'short' }), inTenMinutes(), 'codeVerifier'],
      [newStateHash(), newLogin({ codeVerifier: `${'a'.repeat(42)}+` }), inTenMinutes(), 'codeVerifier'],
      [newStateHash(), newLogin({ codeVerifier: 'a'.repeat(129) }), inTenMinutes(), 'codeVerifier'],
      [newStateHash(), newLogin({ redirectTo: '' }), inTenMinutes(), 'redirectTo'],
      [newStateHash(), newLogin({ redirectTo: '/a\r\nSet-Cookie: x=1' }), inTenMinutes(), 'redirectTo'],
      [newStateHash(), newLogin({ redirectTo: `/${'a'.repeat(2048)}` }), inTenMinutes(), 'redirectTo'],
      [newStateHash(), newLogin(), clock.now(), 'expiresAt'],
      [newStateHash(), newLogin(), new Date(Number.NaN), 'expiresAt'],
    ];
    for (const [stateHash, login, expiresAt, field] of cases) {
      expect(await failureOf(store.oauthStates.save(stateHash, login, expiresAt)), field).toEqual(['INVALID_INPUT', field]);
    }
    expect(await rowCount()).toBe(0);
  });

  it('refuses to save the same state twice as a CONFLICT, keeping the first login', async () => {
    const stateHash = newStateHash();
    const first = newLogin();
    await store.oauthStates.save(stateHash, first, inTenMinutes());
    expect(await codeOf(store.oauthStates.save(stateHash, newLogin(), inTenMinutes()))).toBe('CONFLICT');
    expect(await store.oauthStates.consume(stateHash, 'github', clock.now())).toEqual(first);
  });
});

describeEachEngine('identity-provider logins', (engine) => {
  const clock = new ManualClock(START);
  const opened = useSuiteStore(engine, clock, { tables: ['oauth_states', 'user_identities'], start: START });
  let store: MemsvcStore;
  beforeEach(() => {
    store = opened.current;
  });

  const github: VerifiedIdentity = { provider: 'github', providerUserId: '583231', email: 'alice@example.com', displayName: 'Alice' };
  const identities = () =>
    store.connection.db.selectFrom('user_identities').selectAll().orderBy('provider').orderBy('provider_user_id').execute();

  it("an account's first login makes its email, lower-cased, the user id", async () => {
    expect(await store.userIdentities.recordLogin({ ...github, email: 'Alice@Example.COM' }, clock.now())).toEqual({
      kind: 'linked',
      userId: 'alice@example.com',
    });
    expect(await identities()).toEqual([
      {
        provider: 'github',
        provider_user_id: '583231',
        user_id: 'alice@example.com',
        email: 'alice@example.com',
        display_name: 'Alice',
        created_at: new Date(START),
        last_login_at: new Date(START),
        pinned_at: null,
        blocked_at: null,
      },
    ]);
  });

  it('a later login with the same email updates the name and the login time', async () => {
    await store.userIdentities.recordLogin(github, clock.now());
    clock.advance(24 * 60 * MINUTE);
    const outcome = await store.userIdentities.recordLogin({ ...github, email: 'ALICE@example.com', displayName: undefined }, clock.now());
    expect(outcome).toEqual({ kind: 'linked', userId: 'alice@example.com' });
    expect(await identities()).toEqual([
      {
        provider: 'github',
        provider_user_id: '583231',
        user_id: 'alice@example.com',
        email: 'alice@example.com',
        display_name: null,
        created_at: new Date(START),
        last_login_at: new Date('2026-05-02T09:00:00.000Z'),
        pinned_at: null,
        blocked_at: null,
      },
    ]);
  });

  it('R-IDENTITY-EMAIL: a later login with a changed email is refused, keeps the user id and the login time, and records the email seen', async () => {
    await store.userIdentities.recordLogin(github, clock.now());
    clock.advance(24 * 60 * MINUTE);
    const outcome = await store.userIdentities.recordLogin({ ...github, email: 'alice@new.example' }, clock.now());
    expect(outcome).toEqual({ kind: 'refused', reason: 'identity-email-changed' });
    expect((await identities()).map((row) => [row.user_id, row.email, row.last_login_at])).toEqual([
      ['alice@example.com', 'alice@new.example', new Date(START)],
    ]);
    // Still refused the next time: what the link was made by is the user id, not the email last seen.
    expect(await store.userIdentities.recordLogin({ ...github, email: 'alice@new.example' }, clock.now())).toMatchObject({
      kind: 'refused',
    });
  });

  it('a GitHub and a Google account with the same email act as the same user', async () => {
    const fromGithub = await store.userIdentities.recordLogin(github, clock.now());
    const fromGoogle = await store.userIdentities.recordLogin(
      { provider: 'google', providerUserId: '108234987123498712349', email: 'alice@example.com' },
      clock.now(),
    );
    expect(fromGoogle).toEqual(fromGithub);
    expect((await identities()).map((row) => `${row.provider}:${row.user_id}`)).toEqual([
      'github:alice@example.com',
      'google:alice@example.com',
    ]);
  });

  it('an email that cannot be a user id refuses a new account, naming the email; a linked account with it logs in only when pinned', async () => {
    const quoted = "o'brien@example.com";
    expect(await failureOf(store.userIdentities.recordLogin({ ...github, email: quoted }, clock.now()))).toEqual([
      'INVALID_INPUT',
      'email',
    ]);
    expect(await identities()).toEqual([]);
    await store.userIdentities.recordLogin(github, clock.now());
    clock.advance(MINUTE);
    expect(await store.userIdentities.recordLogin({ ...github, email: quoted }, clock.now())).toEqual({
      kind: 'refused',
      reason: 'identity-email-changed',
    });
    await store.userIdentities.link(github, 'alice@example.com' as TenantId, clock.now());
    expect(await store.userIdentities.recordLogin({ ...github, email: quoted }, clock.now())).toEqual({
      kind: 'linked',
      userId: 'alice@example.com',
    });
    expect((await identities()).map((row) => [row.email, row.last_login_at])).toEqual([[quoted, clock.now()]]);
  });

  it('refuses a bad provider, account id or email with INVALID_INPUT naming the field, and writes nothing', async () => {
    const cases: [Partial<VerifiedIdentity>, string][] = [
      [{ provider: 'gitlab' as never }, 'provider'],
      [{ providerUserId: '' }, 'providerUserId'],
      [{ providerUserId: 'a b' }, 'providerUserId'],
      [{ providerUserId: 'x'.repeat(256) }, 'providerUserId'],
      [{ email: '' }, 'email'],
      [{ email: 'alice' }, 'email'],
      [{ email: 'alice@example.com\u0000' }, 'email'],
      [{ email: `${'a'.repeat(320)}@example.com` }, 'email'],
    ];
    for (const [overrides, field] of cases) {
      expect(await failureOf(store.userIdentities.recordLogin({ ...github, ...overrides }, clock.now())), field).toEqual([
        'INVALID_INPUT',
        field,
      ]);
    }
    expect(await identities()).toEqual([]);
  });

  it('keeps a display name only as displayable text', async () => {
    await store.userIdentities.recordLogin({ ...github, displayName: ` Alice\u001b[31m ${'x'.repeat(300)}` }, clock.now());
    const [row] = await identities();
    expect(row?.display_name).toBe(`Alice[31m ${'x'.repeat(190)}`);
  });

  it('concurrent first logins of one account link it once', async () => {
    await openConnections(store, 6);
    const results = await Promise.all(Array.from({ length: 6 }, () => store.userIdentities.recordLogin(github, clock.now())));
    expect(new Set(results.map((result) => (result.kind === 'linked' ? result.userId : result.reason)))).toEqual(
      new Set(['alice@example.com']),
    );
    expect((await identities()).length).toBe(1);
  });
});
