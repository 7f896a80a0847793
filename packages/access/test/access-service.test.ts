import { createHash, randomBytes } from 'node:crypto';
import { createMemoryEngine, isMemsvcError, type MemsvcError, type TenantId, toTenantId } from '@memsvc/core';
import { StaticEmbedder } from '@memsvc/core/testing';
import { expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { type AccessProfile, type AccessService, createAccessService, type MintedKey, SCOPES } from '../src/index.js';
import { describeOnEachStore, type SuiteStore } from './support/each-store.js';

/** The MemsvcError a promise rejects with. */
async function refusal(promise: Promise<unknown>): Promise<MemsvcError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isMemsvcError(error)) throw new Error(`expected a MemsvcError, got ${String(error)}`);
  return error;
}

/** A key minted as `@memsvc/auth` mints one (auth sits above this package): counted, so a test can tell none was minted. */
function countingMinter() {
  const minted: MintedKey[] = [];
  const mint = (): MintedKey => {
    const key = `msk_${randomBytes(32).toString('base64url')}`;
    const made = { key, prefix: key.slice(0, 12), keyHash: createHash('sha256').update(key).digest('hex') };
    minted.push(made);
    return made;
  };
  return { mint, minted };
}

/** The access service over the suite's store, with a complete engine for grants. */
function serviceOf(store: SuiteStore, profile: AccessProfile = 'standard') {
  const { current, clock } = store;
  const minter = countingMinter();
  const engine = createMemoryEngine({
    store: current.memories,
    embedder: new StaticEmbedder({}, undefined),
    clock,
    grants: current.grants,
    erasures: current.erasures,
  });
  const access: AccessService = createAccessService({ profile, stores: current, engine, clock, mintKey: minter.mint });
  return { access, minted: minter.minted };
}

const START = '2026-07-01T09:00:00.000Z';
const UNKNOWN_UUID = '0196a0d4-0000-7000-8000-000000000000';
let users = 0;
/** A user of one test only: the suites share a store, never rows. */
const newUser = (): TenantId => toTenantId(`user-${++users}`);

describeOnEachStore('the access service: keys', START, (store) => {
  it(verifies('AUTH-KEYS-LITE', 'on lite, creating a key is refused before anything is minted or stored'), async () => {
    const { access, minted } = serviceOf(store, 'lite');
    const userId = newUser();
    const error = await refusal(access.keys.create({ userId, name: 'agent', scopes: ['memories:read'] }, { heldScopes: SCOPES }));
    expect(error.code).toBe('FORBIDDEN');
    expect(minted).toHaveLength(0);
    expect(await access.keys.list(userId)).toEqual([]);
  });

  it('stores only the hash and prefix of the key it returns once, with the expiry counted in days', async () => {
    const { access, minted } = serviceOf(store);
    const userId = newUser();
    const { record, key } = await access.keys.create(
      { userId, name: 'laptop agent', scopes: ['memories:read'], expiresInDays: 30 },
      { heldScopes: SCOPES },
    );
    expect(record).toMatchObject({ userId, name: 'laptop agent', scopes: ['memories:read'], prefix: key.slice(0, 12) });
    expect(record.expiresAt?.toISOString()).toBe('2026-07-31T09:00:00.000Z');
    expect(minted.map((made) => made.key)).toEqual([key]);
    expect((await store.current.apiKeys.findUsable(minted[0]?.keyHash ?? '', store.clock.now()))?.id).toBe(record.id);
  });

  it(verifies('AUTH-KEY-SCOPES-HELD', 'the service gives no scope its maker does not hold, minting and writing nothing then'), async () => {
    const { access, minted } = serviceOf(store);
    const userId = newUser();
    const error = await refusal(
      access.keys.create({ userId, name: 'escalation', scopes: ['memories:read', 'admin'] }, { heldScopes: ['memories:read'] }),
    );
    expect([error.code, error.data.field, error.message]).toEqual([
      'INVALID_INPUT',
      'scopes',
      'a key cannot have a scope you do not hold: admin',
    ]);
    expect(minted).toHaveLength(0);
    expect(await access.keys.list(userId)).toEqual([]);
  });

  it(verifies('AUTH-KEY-INPUT', 'the service refuses a bad name or lifetime naming the field as its caller calls it'), async () => {
    const { access, minted } = serviceOf(store);
    const userId = newUser();
    const fields = { name: '--name', expiresInDays: '--expires-in-days' };
    const blank = await refusal(access.keys.create({ userId, name: '   ', scopes: ['memories:read'] }, { heldScopes: SCOPES }, fields));
    expect([blank.code, blank.data.field]).toEqual(['INVALID_INPUT', '--name']);
    for (const expiresInDays of [0, 1.5, 3651]) {
      const error = await refusal(
        access.keys.create({ userId, name: 'agent', scopes: ['memories:read'], expiresInDays }, { heldScopes: SCOPES }, fields),
      );
      expect([error.code, error.data.field], String(expiresInDays)).toEqual(['INVALID_INPUT', '--expires-in-days']);
    }
    expect(minted).toHaveLength(0);
  });

  it("leaves the store's own rules to the store: a key joins only an organization its user is a member of", async () => {
    const { access } = serviceOf(store);
    const error = await refusal(
      access.keys.create(
        { userId: newUser(), name: 'org bot', scopes: ['memories:read'], organizationId: UNKNOWN_UUID },
        { heldScopes: SCOPES },
      ),
    );
    expect(error.code).toBe('NOT_FOUND');
  });

  it("revoking as an owner reaches only the owner's keys: another's is NOT_FOUND and stays usable", async () => {
    const { access } = serviceOf(store);
    const [alice, bob] = [newUser(), newUser()];
    const { record: bobs } = await access.keys.create(
      { userId: bob, name: 'bob agent', scopes: ['memories:read'] },
      { heldScopes: SCOPES },
    );
    const error = await refusal(access.keys.revoke(bobs.id, { owner: alice }));
    expect([error.code, error.data.field]).toEqual(['NOT_FOUND', 'id']);
    expect((await access.keys.list(bob))[0]?.revokedAt).toBeNull();

    const first = await access.keys.revoke(bobs.id, { owner: bob });
    expect([first.key.id, first.alreadyRevoked]).toEqual([bobs.id, false]);
    store.clock.advance(1_000);
    const again = await access.keys.revoke(bobs.id);
    expect([again.alreadyRevoked, again.key.revokedAt?.toISOString()]).toEqual([true, first.key.revokedAt?.toISOString()]);
    expect((await refusal(access.keys.revoke(UNKNOWN_UUID))).code).toBe('NOT_FOUND');
  });

  it('revokes every key of a user, and none of anyone else', async () => {
    const { access } = serviceOf(store);
    const [carol, dave] = [newUser(), newUser()];
    for (const name of ['one', 'two']) await access.keys.create({ userId: carol, name, scopes: ['memories:read'] }, { heldScopes: SCOPES });
    await access.keys.create({ userId: dave, name: 'three', scopes: ['memories:read'] }, { heldScopes: SCOPES });
    expect(await access.keys.revokeAllOf(carol)).toBe(2);
    expect((await access.keys.list(dave)).map((key) => key.revokedAt)).toEqual([null]);
  });
});

describeOnEachStore('the access service: organizations, identities, sessions', START, (store) => {
  it(
    verifies('AUTH-ORG', 'the service checks names, slugs and roles once, naming the caller’s field, and writes nothing then'),
    async () => {
      const { access } = serviceOf(store);
      const before = (await access.organizations.list()).length;
      const fields = { name: '--name', slug: '--slug' };
      expect((await refusal(access.organizations.create({ name: '   ' }, fields))).data.field).toBe('--name');
      expect((await refusal(access.organizations.create({ name: '日本' }, fields))).message).toMatch(/pass --slug/);
      expect((await refusal(access.organizations.create({ name: 'Acme', slug: 'Not A Slug' }, fields))).data.field).toBe('--slug');
      expect(await access.organizations.list()).toHaveLength(before);

      const owner = newUser();
      const acme = await access.organizations.create({ name: 'Acme Robotics', owner });
      expect(acme.slug).toBe('acme-robotics');
      const role = await refusal(
        access.organizations.addMember({ organizationId: acme.id, userId: newUser(), role: 'root' }, { role: '--role' }),
      );
      expect([role.code, role.data.field]).toEqual(['INVALID_INPUT', '--role']);
      const member = newUser();
      await access.organizations.addMember({ organizationId: acme.id, userId: member, role: 'member' });
      expect((await access.organizations.members(acme.id)).map((entry) => [entry.userId, entry.role])).toEqual([
        [owner, 'owner'],
        [member, 'member'],
      ]);
      expect(await access.organizations.of(member)).toEqual([{ organization: acme, members: await access.organizations.members(acme.id) }]);
      const unknown = await refusal(access.organizations.members(UNKNOWN_UUID, { organizationId: '<orgId>' }));
      expect([unknown.code, unknown.data.field]).toEqual(['NOT_FOUND', '<orgId>']);
    },
  );

  it('parses the account it links, naming the field, and lists, blocks and unlinks it', async () => {
    const { access } = serviceOf(store);
    const userId = newUser();
    const bad = await refusal(access.identities.link('gitlab:42', userId, { account: '<account>' }));
    expect([bad.code, bad.data.field]).toEqual(['INVALID_INPUT', '<account>']);
    const linked = await access.identities.link('github:4242', userId);
    expect([linked.link.provider, linked.link.providerUserId, linked.link.userId, linked.previousUserId]).toEqual([
      'github',
      '4242',
      userId,
      null,
    ]);
    expect((await access.identities.list(userId)).map((link) => link.pinnedAt !== null)).toEqual([true]);
    expect((await access.identities.setBlocked('github:4242', true))?.link.blockedAt).not.toBeNull();
    expect(await access.identities.unlink('github:4242')).toBeDefined();
    expect(await access.identities.unlink('github:4242')).toBeUndefined();
    expect(await access.identities.list(userId)).toEqual([]);
  });

  it('lists a user’s live sessions and ends them all at once', async () => {
    const { access } = serviceOf(store);
    const userId = newUser();
    const expiresAt = new Date(store.clock.now().getTime() + 3_600_000);
    await store.current.sessions.create({ userId, jti: randomBytes(8).toString('hex'), expiresAt });
    expect(await access.sessions.listActive(userId)).toHaveLength(1);
    expect(await access.sessions.endAll(userId)).toBe(1);
    expect(await access.sessions.endAll(userId)).toBe(0);
  });
});

describeOnEachStore('the access service: grants', START, (store) => {
  it('a grant goes through the engine as its owner, and tells the operator whether its grantee exists yet', async () => {
    const { access } = serviceOf(store);
    const [owner, stranger, known] = [newUser(), newUser(), newUser()];
    await access.keys.create({ userId: known, name: 'agent', scopes: ['memories:read'] }, { heldScopes: SCOPES });
    const context = { tenant: owner, actor: { id: 'operator:test' } };
    const toStranger = {
      grant: await access.grants.create(context, { space: 'work', grantee: { kind: 'user', id: stranger }, access: 'read' }),
    };
    const toKnown = { grant: await access.grants.create(context, { space: 'work', grantee: { kind: 'user', id: known }, access: 'read' }) };
    expect([await access.grants.isKnown(toStranger.grant.grantee), await access.grants.isKnown(toKnown.grant.grantee)]).toEqual([
      false,
      true,
    ]);
    expect(toKnown.grant).toMatchObject({ owner, space: 'work', access: 'read' });

    const revoked = await access.grants.revoke(context, toStranger.grant.id);
    expect(revoked.revokedAt).not.toBeNull();
    const { given } = await access.grants.list(context);
    expect(given.map((grant) => [grant.id, grant.revokedAt === null])).toEqual([
      [toKnown.grant.id, true],
      [toStranger.grant.id, false],
    ]);
    expect((await access.grants.list({ tenant: known, actor: { id: known } })).received.map((grant) => grant.id)).toEqual([
      toKnown.grant.id,
    ]);
    const bad = await refusal(access.grants.create(context, { space: '', grantee: { kind: 'user', id: known }, access: 'read' }));
    expect([bad.code, bad.data.field]).toEqual(['INVALID_INPUT', 'space']);
  });
});
