import { createHash } from 'node:crypto';
import type { IdentityAccount, VerifiedIdentity } from '@memsvc/access';
import type { TenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { beforeEach, expect, it } from 'vitest';
import type { MemsvcStore } from '../src/index.js';
import { failureOf } from './support/code-of.js';
import { describeEachEngine } from './support/each-engine.js';
import { useSuiteStore } from './support/suite-store.js';

const HOUR = 3_600_000;
const START = '2026-05-01T09:00:00.000Z';
const BOB = 'bob@corp.example' as TenantId;

// Old Bob's GitHub account, new Bob's Google account: the same address, handed on.
const oldBob: VerifiedIdentity = { provider: 'github', providerUserId: '9001', email: BOB };
const newBob: VerifiedIdentity = { provider: 'google', providerUserId: '117000000000000000001', email: BOB };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const account = (identity: VerifiedIdentity): IdentityAccount => ({ provider: identity.provider, providerUserId: identity.providerUserId });

describeEachEngine('identity links an operator controls', (engine) => {
  const clock = new ManualClock(START);
  const opened = useSuiteStore(engine, clock, { tables: ['user_identities', 'sessions', 'jwt_denylist', 'api_keys'], start: START });
  let store: MemsvcStore;
  beforeEach(() => {
    store = opened.current;
  });

  const inAnHour = () => new Date(clock.now().getTime() + HOUR);
  /** A live session of `userId`: from a GitHub or Google login, or exchanged for an API key. */
  const openSession = async (userId: string, jti: string, apiKey = false) => {
    const key = apiKey
      ? await store.apiKeys.create({
          userId: userId as TenantId,
          name: jti,
          scopes: ['memories:read'],
          prefix: 'msk_abcd',
          keyHash: sha256(jti),
        })
      : undefined;
    await store.sessions.create({ userId: userId as TenantId, jti, expiresAt: inAnHour(), apiKeyId: key?.id });
  };
  const denied = async (...jtis: string[]) => Promise.all(jtis.map((jti) => store.sessions.isDenied(jti, clock.now())));

  it('R-IDENTITY-EMAIL: the finding replayed: after the address is handed on, the old account is refused, the new one gets in', async () => {
    expect(await store.userIdentities.recordLogin(oldBob, clock.now())).toEqual({ kind: 'linked', userId: BOB });
    clock.advance(HOUR);
    expect(await store.userIdentities.recordLogin(newBob, clock.now())).toEqual({ kind: 'linked', userId: BOB });
    await store.sessions.denyAll(BOB, clock.now());
    expect(await store.userIdentities.recordLogin({ ...oldBob, email: 'bob@personal.example' }, clock.now())).toEqual({
      kind: 'refused',
      reason: 'identity-email-changed',
    });
    // Nothing was linked to the new address either: no one is moved to other data without the operator.
    expect((await store.userIdentities.list()).map((link) => `${link.provider}:${link.userId}:${link.email}`)).toEqual([
      'github:bob@corp.example:bob@personal.example',
      `google:${BOB}:${BOB}`,
    ]);
  });

  it("R-IDENTITY-BLOCKED: a blocked account is refused until unblocked; blocking ends its user's GitHub and Google sessions, not their key sessions", async () => {
    await store.userIdentities.recordLogin(oldBob, clock.now());
    await openSession(BOB, 'login-1');
    await openSession(BOB, 'key-1', true);
    await openSession('carol@example.com', 'other-1');
    clock.advance(HOUR / 2);
    const blocked = await store.userIdentities.setBlocked(account(oldBob), true, clock.now());
    expect(blocked).toMatchObject({ link: { userId: BOB, blockedAt: clock.now() }, sessionsEnded: 1 });
    expect(await denied('login-1', 'key-1', 'other-1')).toEqual([true, false, false]);
    expect(await store.userIdentities.recordLogin(oldBob, clock.now())).toEqual({ kind: 'refused', reason: 'identity-blocked' });

    // Blocking again keeps the first time; unblocking lets the account in again and ends nothing.
    clock.advance(HOUR / 4);
    expect((await store.userIdentities.setBlocked(account(oldBob), true, clock.now()))?.link.blockedAt).toEqual(blocked?.link.blockedAt);
    expect(await store.userIdentities.setBlocked(account(oldBob), false, clock.now())).toMatchObject({
      link: { blockedAt: null },
      sessionsEnded: 0,
    });
    expect(await store.userIdentities.recordLogin(oldBob, clock.now())).toEqual({ kind: 'linked', userId: BOB });
  });

  it('R-IDENTITY-PINNED: an operator link moves an account to a user, whatever its email, and ends the sessions of the user it leaves', async () => {
    await store.userIdentities.recordLogin(oldBob, clock.now());
    await openSession(BOB, 'login-1');
    const personal = 'bob@personal.example' as TenantId;
    const moved = await store.userIdentities.link(account(oldBob), personal, clock.now());
    expect(moved).toMatchObject({ link: { userId: personal, pinnedAt: clock.now(), email: BOB }, sessionsEnded: 1 });
    expect(await denied('login-1')).toEqual([true]);
    expect(await store.userIdentities.recordLogin({ ...oldBob, email: 'bob@elsewhere.example' }, clock.now())).toEqual({
      kind: 'linked',
      userId: personal,
    });
    // An account never seen is linked ahead of its first login, which then reaches that user.
    const ahead = { provider: 'google', providerUserId: '42' } as const;
    expect(await store.userIdentities.link(ahead, personal, clock.now())).toMatchObject({ link: { email: null }, sessionsEnded: 0 });
    expect(await store.userIdentities.recordLogin({ ...ahead, email: 'someone@else.example' }, clock.now())).toEqual({
      kind: 'linked',
      userId: personal,
    });
  });

  it("R-IDENTITY-UNLINK: unlinking forgets the link and ends its user's GitHub and Google sessions; the next login links by email afresh", async () => {
    await store.userIdentities.recordLogin(oldBob, clock.now());
    await openSession(BOB, 'login-1');
    await store.userIdentities.recordLogin({ ...oldBob, email: 'bob@personal.example' }, clock.now());
    expect(await store.userIdentities.unlink(account(oldBob), clock.now())).toMatchObject({ link: { userId: BOB }, sessionsEnded: 1 });
    expect(await denied('login-1')).toEqual([true]);
    expect(await store.userIdentities.unlink(account(oldBob), clock.now())).toBeUndefined();
    expect(await store.userIdentities.recordLogin({ ...oldBob, email: 'bob@personal.example' }, clock.now())).toEqual({
      kind: 'linked',
      userId: 'bob@personal.example',
    });
  });

  it("lists every link, or one user's, by user then provider", async () => {
    await store.userIdentities.recordLogin(newBob, clock.now());
    await store.userIdentities.recordLogin(oldBob, clock.now());
    await store.userIdentities.recordLogin({ provider: 'github', providerUserId: '7', email: 'ann@example.com' }, clock.now());
    expect((await store.userIdentities.list()).map((link) => `${link.userId} ${link.provider}`)).toEqual([
      'ann@example.com github',
      `${BOB} github`,
      `${BOB} google`,
    ]);
    expect(await store.userIdentities.list({ userId: BOB })).toEqual([
      expect.objectContaining({ provider: 'github', providerUserId: '9001', pinnedAt: null, blockedAt: null, lastLoginAt: clock.now() }),
      expect.objectContaining({ provider: 'google', providerUserId: newBob.providerUserId }),
    ]);
  });

  it('refuses a bad account or user with INVALID_INPUT naming the field, and changes nothing; an unknown account is undefined', async () => {
    await store.userIdentities.recordLogin(oldBob, clock.now());
    await openSession(BOB, 'login-1');
    const before = await store.userIdentities.list();
    const badAccounts: [IdentityAccount, string][] = [
      [{ provider: 'gitlab' as never, providerUserId: '9001' }, 'provider'],
      [{ provider: 'github', providerUserId: 'a b' }, 'providerUserId'],
      [{ provider: 'github', providerUserId: '' }, 'providerUserId'],
    ];
    for (const [bad, field] of badAccounts) {
      expect(await failureOf(store.userIdentities.link(bad, BOB, clock.now())), field).toEqual(['INVALID_INPUT', field]);
      expect(await failureOf(store.userIdentities.unlink(bad, clock.now())), field).toEqual(['INVALID_INPUT', field]);
      expect(await failureOf(store.userIdentities.setBlocked(bad, true, clock.now())), field).toEqual(['INVALID_INPUT', field]);
    }
    expect(await failureOf(store.userIdentities.link(account(oldBob), 'not a user' as TenantId, clock.now()))).toEqual([
      'INVALID_INPUT',
      'userId',
    ]);
    expect(await failureOf(store.userIdentities.list({ userId: '' as TenantId }))).toEqual(['INVALID_INPUT', 'userId']);
    expect(await store.userIdentities.setBlocked({ provider: 'github', providerUserId: '1' }, true, clock.now())).toBeUndefined();
    expect(await store.userIdentities.list()).toEqual(before);
    expect(await denied('login-1')).toEqual([false]);
  });
});
