import { createHash } from 'node:crypto';
import { type CallContext, createMemoryEngine, type MemoryEngine, MemsvcError, toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { LocalEmbedder } from '@memsvc/embeddings';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import type { MemsvcStore } from '../src/index.js';
import { describeEachEngine } from './support/each-engine.js';
import { useSuiteStore } from './support/suite-store.js';

const START = '2026-06-01T09:00:00.000Z';
const context = (tenant: string, apiKeyId?: string): CallContext => ({
  tenant: toTenantId(tenant),
  actor: { id: apiKeyId ? `agent:${apiKeyId}` : `user:${tenant}` },
  ...(apiKeyId ? { apiKeyId } : {}),
});
const alice = context('alice');
const bob = context('bob');
const carol = context('carol');
const PAYMENTS = 'project:payments';

/** The code and field a refused call rejects with. */
async function refusal(promise: Promise<unknown>): Promise<{ code: string; field: unknown } | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) =>
      error instanceof MemsvcError ? { code: error.code, field: error.data.field } : { code: String(error), field: undefined },
  );
}

// Memories are deleted row by row instead (beforeEach), so the lexical trigger clears their
// postings and statistics as it would in use.
const TABLES = [
  'memory_grant_defaults',
  'memory_grants',
  'memory_audit',
  'memory_links',
  'api_keys',
  'organization_members',
  'organizations',
];

describeEachEngine('memory shared by grant (tenant-swap suite)', (engine) => {
  const clock = new ManualClock(START);
  const opened = useSuiteStore(engine, clock, { tables: TABLES, start: START });
  let store: MemsvcStore;
  let memories: MemoryEngine;
  let ids: { payments: string; private: string; bobOwn: string };

  beforeEach(async () => {
    store = opened.current;
    await sql`DELETE FROM memories`.execute(store.connection.db);
    memories = createMemoryEngine({
      store: store.memories,
      embedder: new LocalEmbedder(),
      clock,
      grants: store.grants,
      erasures: store.erasures,
    });
    const remember = async (who: CallContext, content: string, scope?: string) =>
      (await memories.create(who, { tier: 'ltm', content, ...(scope ? { scope } : {}) })).memory.id;
    ids = {
      payments: await remember(alice, 'The payments service retries refunds three times before paging on-call', PAYMENTS),
      private: await remember(alice, 'My bank PIN reminder: refunds of the dentist bill are due in June', 'personal'),
      bobOwn: await remember(bob, 'Bob keeps notes about refunds for the billing team', 'notes'),
    };
    await remember(carol, 'Carol likes hiking', 'personal');
  });

  const recalled = async (who: CallContext, query: string, shared?: Parameters<MemoryEngine['recall']>[1]['shared']) =>
    (await memories.recall(who, { query, limit: 20, ...(shared ? { shared } : {}) })).results.map((result) => result.memory.id);

  it(
    verifies('R-GRANT-READ', 'a grantee reads only the granted space, labelled with its owner, and only when it asks or chose it'),
    async () => {
      const grant = await memories.grant(alice, { space: PAYMENTS, grantee: { kind: 'user', id: 'bob' }, access: 'read' });
      expect(grant).toMatchObject({
        owner: 'alice',
        space: PAYMENTS,
        access: 'read',
        grantee: { kind: 'user', id: 'bob' },
        revokedAt: null,
      });

      // Not chosen as a default yet: a plain read is bob's own memories only.
      expect(await recalled(bob, 'refunds')).toEqual([ids.bobOwn]);
      const all = await memories.recall(bob, { query: 'refunds', limit: 20, shared: 'all' });
      expect(all.results.map((result) => [result.memory.id, result.memory.userId]).sort()).toEqual(
        [
          [ids.payments, 'alice'],
          [ids.bobOwn, 'bob'],
        ].sort(),
      );
      expect(await recalled(bob, 'refunds', [{ owner: 'alice', space: PAYMENTS }])).toContain(ids.payments);
      // Another of alice's spaces is never read, named or not.
      expect(await recalled(bob, 'dentist bill PIN', 'all')).not.toContain(ids.private);
      expect(await refusal(memories.recall(bob, { query: 'x', shared: [{ owner: 'alice', space: 'personal' }] }))).toEqual({
        code: 'FORBIDDEN',
        field: 'shared',
      });

      await memories.chooseSharedDefault(bob, grant.id, true);
      expect((await recalled(bob, 'refunds')).sort()).toEqual([ids.payments, ids.bobOwn].sort());
      expect(await recalled(bob, 'refunds', 'none')).toEqual([ids.bobOwn]);

      // By id, by listing, in context blocks.
      expect((await memories.get(bob, ids.payments)).userId).toBe('alice');
      expect(await refusal(memories.get(bob, ids.private))).toMatchObject({ code: 'NOT_FOUND' });
      const page = await memories.list(bob, { limit: 10, shared: { owner: 'alice', space: PAYMENTS } });
      expect(page.items.map((memory) => memory.id)).toEqual([ids.payments]);
      const block = await memories.promptContext(bob, { query: 'refunds retries' });
      expect(block.memoryIds).toContain(ids.payments);
      expect(block.text).toContain(`shared by alice, space ${PAYMENTS}`);
      const session = await memories.loadContext(bob, {});
      expect(session.memoryIds).toContain(ids.payments);
      expect(session.memoryIds).not.toContain(ids.private);

      // Reading a shared memory is not the owner's access.
      expect((await memories.getUncounted(alice, ids.payments)).accessCount).toBe(0);
    },
  );

  it(verifies('R-GRANT-NONE', 'a user nothing is shared with sees nothing of another tenant through any read'), async () => {
    await memories.grant(alice, { space: PAYMENTS, grantee: { kind: 'user', id: 'bob' }, access: 'read-write' });
    expect(await recalled(carol, 'refunds payments retries', 'all')).toEqual([]);
    expect(await refusal(memories.get(carol, ids.payments))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await refusal(memories.list(carol, { limit: 10, shared: { owner: 'alice', space: PAYMENTS } }))).toEqual({
      code: 'FORBIDDEN',
      field: 'shared',
    });
    expect((await memories.loadContext(carol, { shared: 'all' })).memoryIds).not.toContain(ids.payments);
    expect(await refusal(memories.update(carol, ids.payments, { content: 'hijacked' }, 1))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await memories.delete(carol, ids.payments)).toBe(false);
    expect(await refusal(memories.create(carol, { tier: 'ltm', content: 'planted', scope: PAYMENTS, owner: 'alice' }))).toEqual({
      code: 'FORBIDDEN',
      field: 'owner',
    });
    expect((await memories.grants(carol)).received).toEqual([]);
    expect((await memories.getUncounted(alice, ids.payments)).content).toContain('retries refunds');
  });

  it(verifies('R-GRANT-WRITE', 'writes into a shared space need read-write and are audited as the grantee'), async () => {
    const grant = await memories.grant(alice, { space: PAYMENTS, grantee: { kind: 'user', id: 'bob' }, access: 'read' });
    const write = () =>
      memories.create(bob, { tier: 'ltm', content: 'Refund retries now back off exponentially', scope: PAYMENTS, owner: 'alice' });
    expect(await refusal(write())).toEqual({ code: 'FORBIDDEN', field: 'owner' });
    expect(await refusal(memories.update(bob, ids.payments, { content: 'changed' }, 1))).toEqual({ code: 'FORBIDDEN', field: 'memoryId' });
    expect(await refusal(memories.delete(bob, ids.payments))).toEqual({ code: 'FORBIDDEN', field: 'memoryId' });

    // Granting again changes the same grant.
    const widened = await memories.grant(alice, { space: PAYMENTS, grantee: { kind: 'user', id: 'bob' }, access: 'read-write' });
    expect(widened.id).toBe(grant.id);
    const written = await write();
    expect(written.memory).toMatchObject({ userId: 'alice', scope: PAYMENTS });
    const audit = await memories.audit(alice, written.memory.id);
    expect(audit.map((entry) => entry.actor)).toEqual(['grantee:bob:user:bob']);
    // Only into the shared space, never another of the owner's scopes or none.
    expect(await refusal(memories.create(bob, { tier: 'ltm', content: 'x', scope: 'personal', owner: 'alice' }))).toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(await refusal(memories.create(bob, { tier: 'ltm', content: 'x', owner: 'alice' }))).toEqual({
      code: 'INVALID_INPUT',
      field: 'scope',
    });

    const updated = await memories.update(bob, ids.payments, { content: 'The payments service retries refunds five times' }, 1);
    expect(updated).toMatchObject({ userId: 'alice', version: 2 });
    expect((await memories.audit(alice, ids.payments))[0]?.actor).toBe('grantee:bob:user:bob');
    expect(await memories.delete(bob, ids.payments)).toBe(true);
    expect(await refusal(memories.getUncounted(alice, ids.payments))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it(verifies('R-GRANT-END', 'revocation and expiry end access at the next call; both sides list the grant'), async () => {
    const grant = await memories.grant(alice, {
      space: PAYMENTS,
      grantee: { kind: 'user', id: 'bob' },
      access: 'read-write',
      expiresAt: new Date(Date.parse(START) + 3_600_000),
    });
    expect((await memories.grants(alice)).given.map((given) => given.id)).toEqual([grant.id]);
    expect((await memories.grants(bob)).received.map((received) => received.id)).toEqual([grant.id]);
    expect(await recalled(bob, 'refunds', 'all')).toContain(ids.payments);

    clock.advance(3_600_001);
    expect(await recalled(bob, 'refunds', 'all')).not.toContain(ids.payments);
    expect(await refusal(memories.get(bob, ids.payments))).toMatchObject({ code: 'NOT_FOUND' });
    expect((await memories.grants(bob)).received).toEqual([]);

    const again = await memories.grant(alice, { space: PAYMENTS, grantee: { kind: 'user', id: 'bob' }, access: 'read' });
    expect(await recalled(bob, 'refunds', 'all')).toContain(ids.payments);
    const revoked = await memories.revokeGrant(alice, again.id);
    expect(revoked.revokedAt).toEqual(clock.now());
    expect(await recalled(bob, 'refunds', 'all')).not.toContain(ids.payments);
    expect(await refusal(memories.list(bob, { limit: 5, shared: { owner: 'alice', space: PAYMENTS } }))).toMatchObject({
      code: 'FORBIDDEN',
    });
    // The owner still sees the ended grant; revoking twice, or someone else's, is NOT_FOUND.
    expect((await memories.grants(alice)).given.find((given) => given.id === again.id)?.revokedAt).not.toBeNull();
    expect(await refusal(memories.revokeGrant(alice, again.id))).toEqual({ code: 'NOT_FOUND', field: 'grantId' });
    const third = await memories.grant(alice, { space: PAYMENTS, grantee: { kind: 'user', id: 'bob' }, access: 'read' });
    expect(await refusal(memories.revokeGrant(bob, third.id))).toEqual({ code: 'NOT_FOUND', field: 'grantId' });
  });

  it('grants to an organization reach its members; grants to an API key reach only calls with that key', async () => {
    const team = await store.organizations.create({ name: 'Billing', slug: 'billing', owner: toTenantId('carol') });
    const toTeam = await memories.grant(alice, { space: PAYMENTS, grantee: { kind: 'organization', id: team.id }, access: 'read' });
    expect(await recalled(carol, 'refunds', 'all')).toContain(ids.payments);
    expect(await recalled(bob, 'refunds', 'all')).not.toContain(ids.payments);
    // Two grants reach carol's one space: a default chosen through either is cleared by stopping through the other.
    const toCarol = await memories.grant(alice, { space: PAYMENTS, grantee: { kind: 'user', id: 'carol' }, access: 'read' });
    await memories.chooseSharedDefault(carol, toTeam.id, true);
    expect(await recalled(carol, 'refunds')).toContain(ids.payments);
    await memories.chooseSharedDefault(carol, toCarol.id, false);
    expect(await recalled(carol, 'refunds')).not.toContain(ids.payments);

    const key = await store.apiKeys.create({
      userId: toTenantId('dave'),
      name: 'ci agent',
      scopes: ['memories:read'],
      prefix: 'msk_test',
      keyHash: createHash('sha256').update('dave-key').digest('hex'),
    });
    await memories.grant(alice, { space: PAYMENTS, grantee: { kind: 'api-key', id: key.id }, access: 'read' });
    expect(await recalled(context('dave', key.id), 'refunds', 'all')).toContain(ids.payments);
    expect(await recalled(context('dave'), 'refunds', 'all')).not.toContain(ids.payments);
  });

  describe('a write under a grant reaches only the granted space', () => {
    const PROJECT_A = 'project:a';
    const PROJECT_B = 'project:b';
    const asAlice = (content: string, scope: string) => memories.create(alice, { tier: 'ltm', content, scope });
    const aliceCount = async () =>
      Number(
        (await sql<{ n: string }>`SELECT count(*) AS n FROM memories WHERE user_id = 'alice'`.execute(store.connection.db)).rows[0]?.n,
      );
    const shareAB = async () => {
      await memories.grant(alice, { space: PROJECT_A, grantee: { kind: 'user', id: 'bob' }, access: 'read-write' });
      await memories.grant(alice, { space: PROJECT_B, grantee: { kind: 'user', id: 'bob' }, access: 'read' });
    };

    it(
      verifies(
        'R-GRANT-SUPERSEDES',
        "a grantee's supersedes outside the granted space is FORBIDDEN, naming supersedes, and writes nothing",
      ),
      async () => {
        const inA = (await asAlice('Sprint reviews of project A happen on Thursdays', PROJECT_A)).memory;
        const inAToo = (await asAlice('Project A deploys from the main branch', PROJECT_A)).memory;
        const inB = (await asAlice('Project B owns the invoice exporter', PROJECT_B)).memory;
        await shareAB();
        // Bob learns the ids he may read: project:b is shared with him read-only.
        expect((await memories.get(bob, inB.id)).id).toBe(inB.id);
        const before = await aliceCount();
        const untouched = async () => {
          expect(await aliceCount()).toBe(before);
          for (const id of [inA.id, inAToo.id, inB.id, ids.private]) {
            expect(await memories.getUncounted(alice, id)).toMatchObject({ supersededBy: null, version: 1 });
          }
        };

        for (const target of [inB.id, ids.private, '01900000-0000-7000-8000-00000000abcd']) {
          const created = memories.create(bob, {
            tier: 'ltm',
            content: `Project A now owns what ${target} said`,
            scope: PROJECT_A,
            owner: 'alice',
            supersedes: [target],
          });
          // An id outside the space and one that does not exist get the same answer.
          expect(await refusal(created)).toEqual({ code: 'FORBIDDEN', field: 'supersedes' });
          expect(
            await refusal(memories.update(bob, inA.id, { content: 'Sprint reviews moved to Fridays', supersedes: [target] }, 1)),
          ).toEqual({
            code: 'FORBIDDEN',
            field: 'supersedes',
          });
          // One id inside the space does not carry one outside it.
          expect(
            await refusal(
              memories.create(bob, { tier: 'ltm', content: 'Mixed', scope: PROJECT_A, owner: 'alice', supersedes: [inAToo.id, target] }),
            ),
          ).toEqual({ code: 'FORBIDDEN', field: 'supersedes' });
          await untouched();
        }

        // Inside the space, supersedes works for the grantee as for the owner.
        const replaced = await memories.create(bob, {
          tier: 'ltm',
          content: 'Project A deploys from release branches now',
          scope: PROJECT_A,
          owner: 'alice',
          supersedes: [inAToo.id],
        });
        expect(replaced.superseded.map((gone) => gone.memoryId)).toEqual([inAToo.id]);
        expect((await memories.getUncounted(alice, inAToo.id)).supersededBy).toBe(replaced.memory.id);
        const revised = await memories.revise(
          bob,
          inA.id,
          { content: 'Sprint reviews moved to Fridays', supersedes: [replaced.memory.id] },
          1,
        );
        expect(revised.superseded.map((gone) => gone.memoryId)).toEqual([replaced.memory.id]);
        expect((await memories.getUncounted(alice, inB.id)).supersededBy).toBeNull();
      },
    );

    it(
      verifies('R-GRANT-SUPERSEDES', "a grantee's write never collapses into, contradicts or replaces a memory outside the granted space"),
      async () => {
        const superseding = createMemoryEngine({
          store: store.memories,
          embedder: new LocalEmbedder(),
          clock,
          grants: store.grants,
          settings: {
            similarity: {
              duplicateThreshold: 0.97,
              contradictionThreshold: 0.5,
              contradictionThresholdMax: 0.97,
              contradictionPolicy: 'supersede',
            },
            importanceHalfLifeDays: 14,
          },
          erasures: store.erasures,
        });
        const deploys = 'Production deploys go to the us-east-1 region every Monday';
        const home = 'I live in Paris';
        const outside = [
          (await asAlice(deploys, PROJECT_B)).memory.id,
          (await asAlice(deploys, 'personal')).memory.id,
          (await asAlice(home, PROJECT_B)).memory.id,
          (await asAlice(home, 'personal')).memory.id,
        ];
        const insideDeploys = (await asAlice(deploys, PROJECT_A)).memory.id;
        await shareAB();
        clock.advance(86_400_000);

        const write = (content: string) => superseding.create(bob, { tier: 'ltm', content, scope: PROJECT_A, owner: 'alice' });
        const moved = await write('Production deploys go to the eu-central-1 region every Tuesday');
        const berlin = await write('I moved to Berlin last month, so I live in Berlin now');
        const copied = await write(home);
        expect(copied.outcome).toBe('created');
        expect(copied.memory.scope).toBe(PROJECT_A);

        for (const result of [moved, berlin, copied]) {
          const touched = [...result.contradictions.map((c) => c.memoryId), ...result.related.map((r) => r.id)];
          for (const id of outside) expect(touched).not.toContain(id);
        }
        for (const id of outside) {
          expect(await memories.getUncounted(alice, id)).toMatchObject({
            supersededBy: null,
            replacedBy: null,
            contradicted: false,
            version: 1,
          });
          expect(await memories.links(alice, id)).toEqual([]);
        }
        // Inside the space the owner's rules apply to the grantee's write as to the owner's.
        expect(moved.contradictions.map((c) => c.memoryId)).toEqual([insideDeploys]);
        expect((await memories.getUncounted(alice, insideDeploys)).supersededBy).toBe(moved.memory.id);
      },
    );
  });

  it(
    verifies(
      'R-GRANT-NO-ENUMERATION',
      'a grant to a user, organization or API key that does not exist answers as one to a grantee that does',
    ),
    async () => {
      const team = await store.organizations.create({ name: 'Billing', slug: 'billing', owner: toTenantId('carol') });
      // An API key of another tenant: alice must not be able to confirm that it exists.
      const key = await store.apiKeys.create({
        userId: toTenantId('dave'),
        name: 'ci agent',
        scopes: ['memories:read'],
        prefix: 'msk_test',
        keyHash: createHash('sha256').update('dave-key').digest('hex'),
      });
      const NO_SUCH_ID = '01900000-0000-7000-8000-0000000000ff';
      // What the caller sees of a grant, less what it named itself and the ids and times of the row.
      const answer = async (kind: 'user' | 'organization' | 'api-key', id: string) => {
        const { grant, error } = await memories.grant(alice, { space: PAYMENTS, grantee: { kind, id }, access: 'read' }).then(
          (made) => ({ grant: made, error: undefined }),
          (refused: unknown) => ({ grant: undefined, error: refused instanceof MemsvcError ? refused.code : String(refused) }),
        );
        if (!grant) return { error };
        const { id: _grantId, createdAt: _createdAt, grantee, ...rest } = grant;
        return { ...rest, grantee: { kind: grantee.kind }, keys: Object.keys(grant).sort() };
      };
      expect(await answer('user', 'nobody-yet')).toEqual(await answer('user', 'bob'));
      expect(await answer('organization', NO_SUCH_ID)).toEqual(await answer('organization', team.id));
      expect(await answer('api-key', '01900000-0000-7000-8000-0000000000fe')).toEqual(await answer('api-key', key.id));

      // A grant to a user id nobody has yet reaches nobody until that user signs in, and then that user only.
      await memories.create(context('nobody-yet'), { tier: 'ltm', content: 'I just signed up', scope: 'personal' });
      expect(await recalled(context('nobody-yet'), 'refunds', 'all')).toContain(ids.payments);
      expect(await recalled(context('nobody-else'), 'refunds', 'all')).not.toContain(ids.payments);
    },
  );

  describe('bad grants change nothing', () => {
    const grants = async () =>
      Number((await sql<{ n: string }>`SELECT count(*) AS n FROM memory_grants`.execute(store.connection.db)).rows[0]?.n);

    it(
      verifies('R-GRANT-REFUSED', 'to oneself, to a malformed grantee id, with a past expiry, of a space one does not own, or re-shared'),
      async () => {
        const refused = async (who: CallContext, request: Parameters<MemoryEngine['grant']>[1]) => refusal(memories.grant(who, request));
        const user = (id: string) => ({ kind: 'user' as const, id });
        expect(await refused(alice, { space: PAYMENTS, grantee: user('alice'), access: 'read' })).toEqual({
          code: 'INVALID_INPUT',
          field: 'grantee',
        });
        // The form of an id, never whether it exists (R-GRANT-NO-ENUMERATION).
        expect(await refused(alice, { space: PAYMENTS, grantee: user('no body'), access: 'read' })).toEqual({
          code: 'INVALID_INPUT',
          field: 'grantee',
        });
        expect(await refused(alice, { space: PAYMENTS, grantee: { kind: 'organization', id: 'billing' }, access: 'read' })).toEqual({
          code: 'INVALID_INPUT',
          field: 'grantee',
        });
        expect(await refused(alice, { space: PAYMENTS, grantee: { kind: 'api-key', id: 'not-a-key' }, access: 'read' })).toEqual({
          code: 'INVALID_INPUT',
          field: 'grantee',
        });
        expect(
          await refused(alice, { space: PAYMENTS, grantee: user('bob'), access: 'read', expiresAt: new Date(Date.parse(START) - 1) }),
        ).toEqual({ code: 'INVALID_INPUT', field: 'expiresAt' });
        expect(await refused(alice, { space: '', grantee: user('bob'), access: 'read' })).toEqual({
          code: 'INVALID_INPUT',
          field: 'space',
        });
        expect(await refused(alice, { space: PAYMENTS, grantee: user('bob'), access: 'write' as never })).toEqual({
          code: 'INVALID_INPUT',
          field: 'access',
        });
        // A space of bob's, named by alice: only bob shares bob's spaces.
        expect(await refused(alice, { space: 'notes', grantee: user('carol'), access: 'read', owner: 'bob' })).toEqual({
          code: 'FORBIDDEN',
          field: 'owner',
        });
        expect(await grants()).toBe(0);

        // A grantee passing on what was shared with it.
        await memories.grant(alice, { space: PAYMENTS, grantee: user('bob'), access: 'read-write' });
        expect(await refused(bob, { space: PAYMENTS, grantee: user('carol'), access: 'read', owner: 'alice' })).toEqual({
          code: 'FORBIDDEN',
          field: 'owner',
        });
        // Without naming the owner it is bob's own (empty) space of that name, not alice's.
        const own = await memories.grant(bob, { space: PAYMENTS, grantee: user('carol'), access: 'read' });
        expect(own.owner).toBe('bob');
        expect(await recalled(carol, 'refunds retries', 'all')).not.toContain(ids.payments);
        expect(await grants()).toBe(2);
      },
    );
  });

  it(
    verifies(
      'R-GRANT-STATISTICS',
      "a shared space ranks by its owner's term statistics; an unshared tenant's never move another's ranking",
    ),
    async () => {
      await memories.grant(alice, { space: PAYMENTS, grantee: { kind: 'user', id: 'bob' }, access: 'read' });
      const scores = async () => {
        const { results } = await memories.recall(bob, { query: 'refunds retries billing', limit: 10, shared: 'all' });
        return Object.fromEntries(results.map((result) => [result.memory.id, [result.lexicalScore, result.score]]));
      };
      const before = await scores();
      // Carol, who shares nothing with bob, writes a hundred memories full of the query's words.
      for (let i = 0; i < 100; i++)
        await memories.create(carol, { tier: 'ltm', content: `refunds retries billing batch ${i}`, scope: PAYMENTS });
      expect(await scores()).toEqual(before);
      // The shared hit's full-text score is the one its owner computes in its own tenant.
      const own = await memories.recall(alice, { query: 'refunds retries billing', limit: 10, scope: PAYMENTS });
      expect(own.results.find((result) => result.memory.id === ids.payments)?.lexicalScore).toBe(before[ids.payments]?.[0]);
    },
  );
});
