import { randomBytes, randomUUID } from 'node:crypto';
import type { NewSession } from '@memsvc/access';
import { toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { sql } from 'kysely';
import { beforeEach, expect, it } from 'vitest';
import type { MemsvcStore } from '../src/index.js';
import { codeOf, failureOf } from './support/code-of.js';
import { describeEachEngine } from './support/each-engine.js';
import { useSuiteStore } from './support/suite-store.js';

const alice = toTenantId('alice');
const bob = toTenantId('bob');
const HOUR = 3_600_000;
const START = '2026-05-01T09:00:00.000Z';

describeEachEngine('sessions', (engine) => {
  const clock = new ManualClock(START);
  const opened = useSuiteStore(engine, clock, { tables: ['sessions', 'jwt_denylist', 'oauth_states', 'user_identities'], start: START });
  let store: MemsvcStore;
  beforeEach(() => {
    store = opened.current;
  });

  /** A session of alice's as the token issuer records one: a fresh jti, valid for `hours`. */
  const newSession = (overrides: Partial<NewSession> = {}, hours = 24): NewSession => ({
    userId: alice,
    jti: randomUUID(),
    expiresAt: new Date(clock.now().getTime() + hours * HOUR),
    ...overrides,
  });
  const count = async (table: 'sessions' | 'jwt_denylist' | 'oauth_states') =>
    (await sql<{ count: number }>`SELECT count(*)::int AS count FROM ${sql.table(table)}`.execute(store.connection.db)).rows[0]?.count;

  it('records a session with where it came from, and lists the live ones of one user, newest first', async () => {
    const first = await store.sessions.create(newSession({ userAgent: 'curl/8.5.0', ipAddress: '203.0.113.7' }));
    expect(first).toEqual({
      id: expect.any(String),
      userId: alice,
      jti: first.jti,
      createdAt: new Date(START),
      expiresAt: new Date('2026-05-02T09:00:00.000Z'),
      revokedAt: null,
      userAgent: 'curl/8.5.0',
      ipAddress: '203.0.113.7',
      apiKeyId: null,
    });
    clock.advance(1000);
    const shortLived = await store.sessions.create(newSession({}, 1));
    clock.advance(1000);
    const second = await store.sessions.create(newSession());
    const bobs = await store.sessions.create(newSession({ userId: bob }));
    expect((await store.sessions.listActive(alice, clock.now())).map((session) => session.id)).toEqual([
      second.id,
      shortLived.id,
      first.id,
    ]);
    expect(await store.sessions.listActive(bob, clock.now())).toEqual([bobs]);
    // Expired from the instant of its expiry, even before the sweep deletes the row.
    clock.set(shortLived.expiresAt);
    expect((await store.sessions.listActive(alice, clock.now())).map((session) => session.id)).toEqual([second.id, first.id]);
    expect(await count('sessions')).toBe(4);
  });

  it('keeps what a client sent only as displayable text: cut to 512 and 64 characters, without control characters', async () => {
    const session = await store.sessions.create(
      newSession({ userAgent: `Mozilla/5.0\u001b[2J ${'x'.repeat(600)}`, ipAddress: `2001:db8::1%${'e'.repeat(80)}` }),
    );
    expect(session.userAgent).toBe(`Mozilla/5.0[2J ${'x'.repeat(497)}`);
    expect(session.ipAddress).toHaveLength(64);
    // A cut never leaves half of a surrogate pair; nothing left to keep is null.
    const emoji = await store.sessions.create(newSession({ userAgent: `${'a'.repeat(511)}😀`, ipAddress: '\u0000 ' }));
    expect(emoji.userAgent).toBe('a'.repeat(511));
    expect(emoji.ipAddress).toBeNull();
    const bare = await store.sessions.create(newSession());
    expect([bare.userAgent, bare.ipAddress]).toEqual([null, null]);
    expect((await store.sessions.listActive(alice, clock.now())).find((listed) => listed.id === session.id)).toEqual(session);
  });

  it('denying a jti puts it on the denylist and marks its session revoked; denying again is no error', async () => {
    const session = await store.sessions.create(newSession());
    const other = await store.sessions.create(newSession());
    expect(await store.sessions.isDenied(session.jti, clock.now())).toBe(false);
    clock.advance(60_000);
    const revokedAt = clock.now();
    await store.sessions.deny(session.jti, session.expiresAt, revokedAt);
    expect(await store.sessions.isDenied(session.jti, clock.now())).toBe(true);
    expect(await store.sessions.isDenied(other.jti, clock.now())).toBe(false);
    const listed = await store.sessions.listActive(alice, clock.now());
    expect(listed.find((record) => record.id === session.id)?.revokedAt).toEqual(revokedAt);
    expect(listed.find((record) => record.id === other.id)?.revokedAt).toBeNull();

    // Again, later and with an earlier expiry: the first revocation time and the later expiry stay.
    clock.advance(60_000);
    await store.sessions.deny(session.jti, new Date(session.expiresAt.getTime() - HOUR), clock.now());
    expect(await count('jwt_denylist')).toBe(1);
    const entry = await store.connection.db.selectFrom('jwt_denylist').selectAll().executeTakeFirstOrThrow();
    expect(entry).toEqual({ jti: session.jti, expires_at: session.expiresAt, created_at: revokedAt });
    expect((await store.sessions.listActive(alice, clock.now())).find((record) => record.id === session.id)?.revokedAt).toEqual(revokedAt);
    // A later expiry lengthens the entry.
    const later = new Date(session.expiresAt.getTime() + HOUR);
    await store.sessions.deny(session.jti, later, clock.now());
    expect((await store.connection.db.selectFrom('jwt_denylist').select('expires_at').executeTakeFirstOrThrow()).expires_at).toEqual(later);
  });

  it("ends every live session of one user at once, and nobody else's", async () => {
    const first = await store.sessions.create(newSession());
    const second = await store.sessions.create(newSession({}, 2));
    const expired = await store.sessions.create(newSession({}, 1));
    const bobs = await store.sessions.create(newSession({ userId: bob }));
    await store.sessions.deny(first.jti, first.expiresAt, clock.now());
    clock.advance(HOUR + 1);
    // first is already revoked and `expired` has expired: only second is left to end.
    expect(await store.sessions.denyAll(alice, clock.now())).toBe(1);
    expect(await store.sessions.isDenied(second.jti, clock.now())).toBe(true);
    expect(await store.sessions.isDenied(bobs.jti, clock.now())).toBe(false);
    expect(await store.sessions.isDenied(expired.jti, clock.now())).toBe(false);
    const entry = await store.connection.db.selectFrom('jwt_denylist').selectAll().where('jti', '=', second.jti).executeTakeFirstOrThrow();
    expect(entry.expires_at).toEqual(second.expiresAt);
    expect(await store.sessions.denyAll(alice, clock.now())).toBe(0);
  });

  it('denies a jti that has no recorded session (a token issued before sessions were recorded)', async () => {
    const jti = randomUUID();
    await store.sessions.deny(jti, new Date(clock.now().getTime() + HOUR), clock.now());
    expect(await store.sessions.isDenied(jti, clock.now())).toBe(true);
    expect(await count('sessions')).toBe(0);
  });

  it('a denylist entry past its expiry no longer counts, from the instant it expires', async () => {
    const session = await store.sessions.create(newSession({}, 1));
    await store.sessions.deny(session.jti, session.expiresAt, clock.now());
    expect(await store.sessions.isDenied(session.jti, new Date(session.expiresAt.getTime() - 1))).toBe(true);
    expect(await store.sessions.isDenied(session.jti, session.expiresAt)).toBe(false);
    // The row is still there until the sweep; the read filters on expiry regardless.
    expect(await count('jwt_denylist')).toBe(1);
  });

  it('refuses a bad jti or an expiry not in the future with INVALID_INPUT naming the field, and writes nothing', async () => {
    const cases: [Partial<NewSession>, string][] = [
      [{ jti: '' }, 'jti'],
      [{ jti: 'x'.repeat(201) }, 'jti'],
      [{ jti: 'has space' }, 'jti'],
      [{ jti: 'tab\tbed' }, 'jti'],
      [{ jti: 'nul\u0000' }, 'jti'],
      [{ jti: 'jtī' }, 'jti'],
      [{ expiresAt: clock.now() }, 'expiresAt'],
      [{ expiresAt: new Date(clock.now().getTime() - HOUR) }, 'expiresAt'],
      [{ expiresAt: new Date(Number.NaN) }, 'expiresAt'],
    ];
    for (const [overrides, field] of cases) {
      expect(await failureOf(store.sessions.create(newSession(overrides))), JSON.stringify(overrides)).toEqual(['INVALID_INPUT', field]);
    }
    expect(await store.sessions.create(newSession({ jti: 'x'.repeat(200) }))).toMatchObject({ jti: 'x'.repeat(200) });
    await sql`TRUNCATE sessions`.execute(store.connection.db);

    const expiry = new Date(clock.now().getTime() + HOUR);
    expect(await failureOf(store.sessions.deny('', expiry, clock.now()))).toEqual(['INVALID_INPUT', 'jti']);
    expect(await failureOf(store.sessions.deny('bad jti', expiry, clock.now()))).toEqual(['INVALID_INPUT', 'jti']);
    expect(await failureOf(store.sessions.deny(randomUUID(), new Date(Number.NaN), clock.now()))).toEqual(['INVALID_INPUT', 'expiresAt']);
    // A jti that could never be denied is not denied, without a query that could fail on it.
    expect(await store.sessions.isDenied('nul\u0000', clock.now())).toBe(false);
    expect([await count('sessions'), await count('jwt_denylist')]).toEqual([0, 0]);
  });

  it('refuses a second session with the same jti as a CONFLICT', async () => {
    const session = newSession();
    await store.sessions.create(session);
    expect(await codeOf(store.sessions.create({ ...session, userId: bob }))).toBe('CONFLICT');
    expect(await count('sessions')).toBe(1);
  });

  it('the auth-store sweep deletes expired sessions, OAuth states and denylist entries, and the live ones keep working', async () => {
    const expiring = await store.sessions.create(newSession({}, 1));
    const live = await store.sessions.create(newSession({}, 48));
    await store.sessions.deny(expiring.jti, expiring.expiresAt, clock.now());
    await store.sessions.deny(live.jti, live.expiresAt, clock.now());
    const login = { provider: 'github', codeVerifier: randomBytes(32).toString('base64url'), redirectTo: null } as const;
    const [staleState, liveState] = [randomBytes(32).toString('hex'), randomBytes(32).toString('hex')];
    await store.oauthStates.save(staleState, login, new Date(clock.now().getTime() + 600_000));
    clock.advance(HOUR);
    await store.oauthStates.save(liveState, login, new Date(clock.now().getTime() + 600_000));

    const counts = await store.lifecycle.sweepAuthStore(clock.now());
    expect(counts).toEqual({ sessions: 1, oauthStates: 1, deniedJtis: 1, rateLimitCounters: 0 });
    expect([await count('sessions'), await count('oauth_states'), await count('jwt_denylist')]).toEqual([1, 1, 1]);
    expect(await store.sessions.isDenied(live.jti, clock.now())).toBe(true);
    expect((await store.sessions.listActive(alice, clock.now())).map((session) => session.id)).toEqual([live.id]);
    expect(await store.oauthStates.consume(liveState, 'github', clock.now())).toEqual(login);
    expect(await store.lifecycle.sweepAuthStore(clock.now())).toEqual({ sessions: 0, oauthStates: 0, deniedJtis: 0, rateLimitCounters: 0 });
  });
});
