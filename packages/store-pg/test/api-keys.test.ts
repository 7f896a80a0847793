import { randomBytes, randomUUID } from 'node:crypto';
import type { NewApiKey } from '@memsvc/access';
import { toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { sql } from 'kysely';
import { beforeEach, expect, it } from 'vitest';
import type { MemsvcStore } from '../src/index.js';
import { codeOf, codeOfError, failureOf } from './support/code-of.js';
import { describeEachEngine } from './support/each-engine.js';
import { useSuiteStore } from './support/suite-store.js';

const alice = toTenantId('alice');
const bob = toTenantId('bob');
const DAY = 86_400_000;

/**
 * A key as `@memsvc/auth` mints one (store-pg does not depend on auth): a random 64-hex hash and
 * a 12-character prefix.
 */
function newKey(overrides: Partial<NewApiKey> = {}): NewApiKey {
  const keyHash = randomBytes(32).toString('hex');
  return {
    userId: alice,
    name: 'agent',
    scopes: ['memories:read', 'memories:write'],
    prefix: `msk_${keyHash.slice(0, 8)}`,
    keyHash,
    ...overrides,
  };
}

const START = '2026-05-01T09:00:00.000Z';

describeEachEngine('API keys', (engine) => {
  const clock = new ManualClock(START);
  const opened = useSuiteStore(engine, clock, {
    tables: ['api_keys', 'organization_members', 'organizations', 'sessions', 'jwt_denylist'],
    start: START,
  });
  let store: MemsvcStore;
  beforeEach(() => {
    store = opened.current;
  });

  const rowCount = async () =>
    (await sql<{ count: number }>`SELECT count(*)::int AS count FROM api_keys`.execute(store.connection.db)).rows[0]?.count;

  it('AUTH-KEY-USABLE: a created key is found by its hash, and the hash is never read back', async () => {
    const key = newKey({ name: 'ci agent', scopes: ['memories:read'] });
    const created = await store.apiKeys.create(key);
    expect(created).toEqual({
      id: expect.any(String),
      userId: alice,
      organizationId: null,
      name: 'ci agent',
      prefix: key.prefix,
      scopes: ['memories:read'],
      createdAt: new Date('2026-05-01T09:00:00.000Z'),
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
    });
    expect(await store.apiKeys.findUsable(key.keyHash, clock.now())).toEqual(created);
    expect(await store.apiKeys.findUsable(randomBytes(32).toString('hex'), clock.now())).toBeUndefined();
    const stored = await store.connection.db.selectFrom('api_keys').select(['key_hash', 'scopes']).executeTakeFirstOrThrow();
    expect(stored).toEqual({ key_hash: key.keyHash, scopes: ['memories:read'] });
  });

  it('AUTH-KEY-USABLE: an expired key is not found, from the instant it expires', async () => {
    const key = newKey({ expiresAt: new Date(clock.now().getTime() + 30 * DAY) });
    const created = await store.apiKeys.create(key);
    expect(created.expiresAt).toEqual(new Date('2026-05-31T09:00:00.000Z'));
    clock.advance(30 * DAY - 1);
    expect((await store.apiKeys.findUsable(key.keyHash, clock.now()))?.id).toBe(created.id);
    clock.advance(1);
    expect(await store.apiKeys.findUsable(key.keyHash, clock.now())).toBeUndefined();
    // Still listed, so an operator can see why a key stopped working.
    expect((await store.apiKeys.list({ userId: alice })).map((record) => record.id)).toEqual([created.id]);
  });

  it('AUTH-KEY-USABLE: a revoked key is not found; revoking again keeps the first time; an unknown id is undefined', async () => {
    const key = newKey();
    const created = await store.apiKeys.create(key);
    clock.advance(60_000);
    const revoked = await store.apiKeys.revoke(created.id, clock.now());
    expect(revoked).toEqual({ ...created, revokedAt: new Date('2026-05-01T09:01:00.000Z') });
    expect(await store.apiKeys.findUsable(key.keyHash, clock.now())).toBeUndefined();
    clock.advance(60_000);
    expect(await store.apiKeys.revoke(created.id, clock.now())).toEqual(revoked);
    expect(await store.apiKeys.revoke('0196a0d4-0000-7000-8000-000000000000', clock.now())).toBeUndefined();
    expect(await store.apiKeys.revoke('not-a-uuid', clock.now())).toBeUndefined();
  });

  it('AUTH-KEY-TENANT: lists the keys of one user newest first, and never those of another', async () => {
    const first = await store.apiKeys.create(newKey({ name: 'first' }));
    clock.advance(1000);
    const bobs = await store.apiKeys.create(newKey({ userId: bob, name: 'bob' }));
    clock.advance(1000);
    const second = await store.apiKeys.create(newKey({ name: 'second' }));
    expect((await store.apiKeys.list({ userId: alice })).map((record) => record.name)).toEqual(['second', 'first']);
    expect((await store.apiKeys.list({ userId: bob })).map((record) => record.id)).toEqual([bobs.id]);
    expect((await store.apiKeys.list({ userId: toTenantId('carol') })).length).toBe(0);
    expect((await store.apiKeys.list({})).map((record) => record.id)).toEqual([second.id, bobs.id, first.id]);
  });

  it('records the use of several keys in one call, never moving last use backwards', async () => {
    const [one, two, three] = [
      await store.apiKeys.create(newKey()),
      await store.apiKeys.create(newKey()),
      await store.apiKeys.create(newKey()),
    ];
    const at = new Date('2026-05-02T10:00:00.000Z');
    await store.apiKeys.recordUse([one?.id ?? '', two?.id ?? '', one?.id ?? '', 'not-a-uuid'], at);
    const lastUse = async () => (await store.apiKeys.list({})).map((record) => [record.id, record.lastUsedAt?.toISOString() ?? null]);
    expect(Object.fromEntries(await lastUse())).toEqual({
      [one?.id ?? '']: at.toISOString(),
      [two?.id ?? '']: at.toISOString(),
      [three?.id ?? '']: null,
    });
    // A batch that arrives late (from a slower replica) leaves the newer time.
    await store.apiKeys.recordUse([one?.id ?? ''], new Date('2026-05-02T09:00:00.000Z'));
    await store.apiKeys.recordUse([], at);
    expect((await store.apiKeys.list({})).find((record) => record.id === one?.id)?.lastUsedAt).toEqual(at);
  });

  it('AUTH-KEY-INPUT: refuses bad input with INVALID_INPUT naming the field, and writes nothing', async () => {
    const cases: [Partial<NewApiKey>, string][] = [
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ scopes: [] }, 'scopes'],
      [{ scopes: ['memories:read', 'root' as never] }, 'scopes'],
      [{ organizationId: 'acme' }, 'organizationId'],
      [{ expiresAt: clock.now() }, 'expiresAt'],
      [{ expiresAt: new Date(Number.NaN) }, 'expiresAt'],
      [{ keyHash: 'abc' }, 'keyHash'],
      [{ prefix: '' }, 'prefix'],
    ];
    for (const [overrides, field] of cases) {
      const failure = await store.apiKeys.create(newKey(overrides)).then(
        () => undefined,
        (error: unknown) => error as { code: string; data: { field: string } },
      );
      expect([failure?.code, failure?.data.field], field).toEqual(['INVALID_INPUT', field]);
    }
    expect(await rowCount()).toBe(0);
  });

  it('AUTH-KEY-INPUT: a key of an organization that does not exist is NOT_FOUND; of one its user is not a member of, refused', async () => {
    expect(await codeOf(store.apiKeys.create(newKey({ organizationId: '0196a0d4-0000-7000-8000-000000000000' })))).toBe('NOT_FOUND');
    expect(await rowCount()).toBe(0);
    const acme = await store.organizations.create({ name: 'Acme', slug: 'acme', owner: bob });
    const outsider = await store.apiKeys.create(newKey({ organizationId: acme.id })).catch((error: unknown) => error);
    expect(outsider).toMatchObject({ code: 'INVALID_INPUT', data: { field: 'organizationId' } });
    expect((outsider as Error).message).toContain('alice is not a member');
    expect(await rowCount()).toBe(0);
    await store.organizations.addMember({ organizationId: acme.id, userId: alice, role: 'member' });
    const key = await store.apiKeys.create(newKey({ organizationId: acme.id }));
    expect(key.organizationId).toBe(acme.id);
  });

  it("revokes every key of one user at once, keeping earlier revocation times and nobody else's keys", async () => {
    const first = await store.apiKeys.create(newKey());
    await store.apiKeys.revoke(first.id, clock.now());
    const firstRevokedAt = clock.now();
    clock.advance(60_000);
    await store.apiKeys.create(newKey());
    await store.apiKeys.create(newKey());
    const bobs = await store.apiKeys.create(newKey({ userId: bob }));
    expect(await store.apiKeys.revokeAllOf(alice, clock.now())).toBe(2);
    const alices = await store.apiKeys.list({ userId: alice });
    expect(alices.map((key) => key.revokedAt)).toEqual([clock.now(), clock.now(), firstRevokedAt]);
    expect((await store.apiKeys.list({ userId: bob }))[0]?.revokedAt).toBeNull();
    expect(await store.apiKeys.revokeAllOf(alice, clock.now())).toBe(0);
    expect(bobs.revokedAt).toBeNull();
  });

  it('AUTH-KEY-SESSIONS: revoking a key ends the sessions exchanged for it, and no other session', async () => {
    const key = await store.apiKeys.create(newKey());
    const otherKey = await store.apiKeys.create(newKey());
    const expiresAt = new Date(clock.now().getTime() + 3_600_000);
    const fromKey = await store.sessions.create({ userId: alice, jti: randomUUID(), expiresAt, apiKeyId: key.id });
    const fromOtherKey = await store.sessions.create({ userId: alice, jti: randomUUID(), expiresAt, apiKeyId: otherKey.id });
    const fromLogin = await store.sessions.create({ userId: alice, jti: randomUUID(), expiresAt });
    expect(fromKey.apiKeyId).toBe(key.id);
    expect(fromLogin.apiKeyId).toBeNull();
    clock.advance(1000);
    await store.apiKeys.revoke(key.id, clock.now());
    expect(await store.sessions.isDenied(fromKey.jti, clock.now())).toBe(true);
    expect(await store.sessions.isDenied(fromOtherKey.jti, clock.now())).toBe(false);
    expect(await store.sessions.isDenied(fromLogin.jti, clock.now())).toBe(false);
    const listed = await store.sessions.listActive(alice, clock.now());
    expect(listed.find((session) => session.id === fromKey.id)?.revokedAt).toEqual(clock.now());
    // Revoking every key of the user ends the other key's session too; the login's stays.
    await store.apiKeys.revokeAllOf(alice, clock.now());
    expect(await store.sessions.isDenied(fromOtherKey.jti, clock.now())).toBe(true);
    expect(await store.sessions.isDenied(fromLogin.jti, clock.now())).toBe(false);
  });

  it('AUTH-KEY-SESSIONS: revoking a key revokes the keys made from it at any depth, and their sessions; never its parent or a sibling', async () => {
    const parent = await store.apiKeys.create(newKey({ name: 'parent' }));
    const child = await store.apiKeys.create(newKey({ name: 'child', parentKeyId: parent.id }));
    const grandchild = await store.apiKeys.create(newKey({ name: 'grandchild', parentKeyId: child.id }));
    await store.apiKeys.create(newKey({ name: 'sibling', parentKeyId: parent.id }));
    const expiresAt = new Date(clock.now().getTime() + 3_600_000);
    const fromGrandchild = await store.sessions.create({ userId: alice, jti: randomUUID(), expiresAt, apiKeyId: grandchild.id });
    clock.advance(1000);

    const revoked = await store.apiKeys.revoke(child.id, clock.now());
    expect(revoked).toMatchObject({ id: child.id, revokedAt: clock.now() });
    const state = async () =>
      Object.fromEntries((await store.apiKeys.list({ userId: alice })).map((key) => [key.name, key.revokedAt?.toISOString() ?? null]));
    expect(await state()).toEqual({ parent: null, child: clock.now().toISOString(), grandchild: clock.now().toISOString(), sibling: null });
    expect(await store.sessions.isDenied(fromGrandchild.jti, clock.now())).toBe(true);

    const first = clock.now().toISOString();
    clock.advance(1000);
    await store.apiKeys.revoke(parent.id, clock.now());
    // The parent and the sibling now; the branch revoked before keeps its first time.
    expect(await state()).toEqual({
      parent: clock.now().toISOString(),
      child: first,
      grandchild: first,
      sibling: clock.now().toISOString(),
    });
    expect(await failureOf(store.apiKeys.create(newKey({ parentKeyId: 'not-a-key' })))).toEqual(['INVALID_INPUT', 'parentKeyId']);
  });

  it('AUTH-KEY-SESSIONS: a session naming something other than a key id is refused, naming the field', async () => {
    const expiresAt = new Date(clock.now().getTime() + 3_600_000);
    const failure = await failureOf(store.sessions.create({ userId: alice, jti: randomUUID(), expiresAt, apiKeyId: 'not-a-key' }));
    expect(failure).toEqual(['INVALID_INPUT', 'apiKeyId']);
    expect(await store.sessions.listActive(alice, clock.now())).toEqual([]);
  });

  it("AUTH-LIVE-ISSUE: a revoked or expired key, or another user's, opens no session; nothing is written", async () => {
    const expiresAt = new Date(clock.now().getTime() + 3_600_000);
    const revoked = await store.apiKeys.create(newKey());
    await store.apiKeys.revoke(revoked.id, clock.now());
    const expiring = await store.apiKeys.create(newKey({ expiresAt: new Date(clock.now().getTime() + 1000) }));
    const bobs = await store.apiKeys.create(newKey({ userId: bob }));
    clock.advance(1000);
    for (const apiKeyId of [revoked.id, expiring.id, bobs.id, randomUUID()]) {
      expect(await failureOf(store.sessions.create({ userId: alice, jti: randomUUID(), expiresAt, apiKeyId }))).toEqual([
        'UNAUTHENTICATED',
        'apiKeyId',
      ]);
    }
    expect(await store.sessions.listActive(alice, clock.now())).toEqual([]);
  });

  it('AUTH-LIVE-ISSUE: a key revoked while a session is being exchanged for it never leaves that session usable (concurrent, 20 rounds)', async () => {
    const expiresAt = new Date(clock.now().getTime() + 3_600_000);
    for (let round = 0; round < 20; round++) {
      const key = await store.apiKeys.create(newKey());
      const jti = randomUUID();
      const [issued] = await Promise.allSettled([
        store.sessions.create({ userId: alice, jti, expiresAt, apiKeyId: key.id }),
        store.apiKeys.revoke(key.id, clock.now()),
      ]);
      // Either the session was refused, or it was written before the revocation, which ended it.
      if (issued.status === 'fulfilled') expect(await store.sessions.isDenied(jti, clock.now()), `round ${round}`).toBe(true);
      else expect(codeOfError(issued.reason)).toBe('UNAUTHENTICATED');
    }
  });

  it("AUTH-LIVE-ISSUE: a revoked or expired key, an ended session, or another user's, mints no key; nothing is written", async () => {
    const expiresAt = new Date(clock.now().getTime() + 3_600_000);
    const revoked = await store.apiKeys.create(newKey());
    await store.apiKeys.revoke(revoked.id, clock.now());
    const loggedOut = await store.sessions.create({ userId: alice, jti: randomUUID(), expiresAt });
    await store.sessions.deny(loggedOut.jti, expiresAt, clock.now());
    const bobsSession = await store.sessions.create({ userId: bob, jti: randomUUID(), expiresAt });
    const bobsKey = await store.apiKeys.create(newKey({ userId: bob }));
    const before = await rowCount();
    const cases: [Partial<NewApiKey>, string][] = [
      [{ parentKeyId: revoked.id }, 'parentKeyId'],
      [{ parentKeyId: bobsKey.id }, 'parentKeyId'],
      [{ parentKeyId: randomUUID() }, 'parentKeyId'],
      [{ madeInSession: loggedOut.jti }, 'madeInSession'],
      [{ madeInSession: bobsSession.jti }, 'madeInSession'],
      [{ madeInSession: randomUUID() }, 'madeInSession'],
    ];
    for (const [made, field] of cases) expect(await failureOf(store.apiKeys.create(newKey(made)))).toEqual(['UNAUTHENTICATED', field]);
    expect(await failureOf(store.apiKeys.create(newKey({ madeInSession: 'a jti with spaces' })))).toEqual([
      'INVALID_INPUT',
      'madeInSession',
    ]);
    expect(await rowCount()).toBe(before);
  });

  it("AUTH-KEYS-SESSION-BOUND: a key made in a session expires no later than it, and ends with it: at logout, at the end of every session, or with the session's key", async () => {
    const sessionEnds = new Date(clock.now().getTime() + 3_600_000);
    const login = await store.sessions.create({ userId: alice, jti: randomUUID(), expiresAt: sessionEnds });
    const forever = await store.apiKeys.create(newKey({ name: 'asked forever', madeInSession: login.jti }));
    const shorter = new Date(clock.now().getTime() + 60_000);
    const soon = await store.apiKeys.create(newKey({ name: 'asked a minute', madeInSession: login.jti, expiresAt: shorter }));
    const grandchild = await store.apiKeys.create(newKey({ name: 'made from it', parentKeyId: forever.id }));
    expect([forever.expiresAt, soon.expiresAt, grandchild.expiresAt]).toEqual([sessionEnds, shorter, sessionEnds]);
    clock.advance(1000);
    await store.sessions.deny(login.jti, sessionEnds, clock.now());
    const state = async () => Object.fromEntries((await store.apiKeys.list({ userId: alice })).map((key) => [key.name, key.revokedAt]));
    expect(await state()).toMatchObject({ 'asked forever': clock.now(), 'asked a minute': clock.now(), 'made from it': clock.now() });

    // Ending every session of the user ends the keys made in any of them.
    const second = await store.sessions.create({ userId: alice, jti: randomUUID(), expiresAt: sessionEnds });
    const inSecond = await store.apiKeys.create(newKey({ name: 'in the second', madeInSession: second.jti }));
    const untouched = await store.apiKeys.create(newKey({ name: 'operator made' }));
    clock.advance(1000);
    expect(await store.sessions.denyAll(alice, clock.now())).toBe(1);
    const after = await store.apiKeys.list({ userId: alice });
    expect(after.find((key) => key.id === inSecond.id)?.revokedAt).toEqual(clock.now());
    expect(after.find((key) => key.id === untouched.id)?.revokedAt).toBeNull();

    // A key made in a session exchanged for a key is that key's child: revoking the key ends
    // the session, the key made in it, and the sessions of that one.
    const agent = await store.apiKeys.create(newKey({ name: 'agent' }));
    const agentSession = await store.sessions.create({ userId: alice, jti: randomUUID(), expiresAt: sessionEnds, apiKeyId: agent.id });
    const minted = await store.apiKeys.create(newKey({ name: 'minted in the agent session', madeInSession: agentSession.jti }));
    const mintedSession = await store.sessions.create({ userId: alice, jti: randomUUID(), expiresAt: sessionEnds, apiKeyId: minted.id });
    clock.advance(1000);
    await store.apiKeys.revoke(agent.id, clock.now());
    expect((await store.apiKeys.list({ userId: alice })).find((key) => key.id === minted.id)?.revokedAt).toEqual(clock.now());
    expect(await store.sessions.isDenied(mintedSession.jti, clock.now())).toBe(true);
  });

  it('refuses a second key with the same hash as a CONFLICT', async () => {
    const key = newKey();
    await store.apiKeys.create(key);
    expect(await codeOf(store.apiKeys.create({ ...key, name: 'copy' }))).toBe('CONFLICT');
    expect(await rowCount()).toBe(1);
  });

  it('reads only the scopes this version knows from a row', async () => {
    const created = await store.apiKeys.create(newKey());
    await sql`UPDATE api_keys SET scopes = '{memories:read,memories:teleport}' WHERE id = ${created.id}`.execute(store.connection.db);
    expect((await store.apiKeys.list({ userId: alice }))[0]?.scopes).toEqual(['memories:read']);
  });
});

describeEachEngine('organizations', (engine) => {
  const clock = new ManualClock(START);
  const opened = useSuiteStore(engine, clock, {
    tables: ['api_keys', 'organization_members', 'organizations', 'sessions', 'jwt_denylist'],
    start: START,
  });
  let store: MemsvcStore;
  beforeEach(() => {
    store = opened.current;
  });

  it('AUTH-ORG: creates an organization with its owner, lists newest first, and refuses a taken slug', async () => {
    const acme = await store.organizations.create({ name: 'Acme', slug: 'acme', owner: alice });
    expect(acme).toEqual({ id: expect.any(String), name: 'Acme', slug: 'acme', createdAt: clock.now() });
    clock.advance(1000);
    const globex = await store.organizations.create({ name: 'Globex', slug: 'globex' });
    expect((await store.organizations.list()).map((organization) => organization.slug)).toEqual(['globex', 'acme']);
    expect(await store.organizations.find(acme.id)).toEqual(acme);
    expect(await store.organizations.find('acme')).toBeUndefined();
    expect(await store.organizations.members(acme.id)).toEqual([
      { organizationId: acme.id, userId: alice, role: 'owner', createdAt: acme.createdAt },
    ]);
    expect(await store.organizations.members(globex.id)).toEqual([]);
    expect(await codeOf(store.organizations.create({ name: 'Acme again', slug: 'acme' }))).toBe('CONFLICT');
    expect((await store.organizations.list()).length).toBe(2);
  });

  it('AUTH-ORG: adds members, changes a role in place, and lists owners first', async () => {
    const acme = await store.organizations.create({ name: 'Acme', slug: 'acme' });
    await store.organizations.addMember({ organizationId: acme.id, userId: toTenantId('zed'), role: 'owner' });
    await store.organizations.addMember({ organizationId: acme.id, userId: bob, role: 'member' });
    await store.organizations.addMember({ organizationId: acme.id, userId: alice, role: 'member' });
    const promoted = await store.organizations.addMember({ organizationId: acme.id, userId: bob, role: 'admin' });
    expect(promoted.role).toBe('admin');
    expect((await store.organizations.members(acme.id)).map((member) => `${member.userId}:${member.role}`)).toEqual([
      'zed:owner',
      'bob:admin',
      'alice:member',
    ]);
  });

  it('AUTH-ORG: refuses bad input naming the field, and an unknown organization as NOT_FOUND', async () => {
    for (const [organization, field] of [
      [{ name: '', slug: 'ok' }, 'name'],
      [{ name: 'Ok', slug: 'Not A Slug' }, 'slug'],
    ] as const) {
      const failure = await store.organizations.create(organization).then(
        () => undefined,
        (error: unknown) => error as { code: string; data: { field: string } },
      );
      expect([failure?.code, failure?.data.field]).toEqual(['INVALID_INPUT', field]);
    }
    expect(await store.organizations.list()).toEqual([]);
    const member = { organizationId: '0196a0d4-0000-7000-8000-000000000000', userId: alice, role: 'member' } as const;
    expect(await codeOf(store.organizations.addMember(member))).toBe('NOT_FOUND');
    expect(await codeOf(store.organizations.addMember({ ...member, organizationId: 'acme' }))).toBe('INVALID_INPUT');
    const acme = await store.organizations.create({ name: 'Acme', slug: 'acme' });
    expect(await codeOf(store.organizations.addMember({ ...member, organizationId: acme.id, role: 'root' as never }))).toBe(
      'INVALID_INPUT',
    );
  });
});
