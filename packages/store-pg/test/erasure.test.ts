import { createHash } from 'node:crypto';
import { type CallContext, createMemoryEngine, type MemoryEngine, MemsvcError, toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { LocalEmbedder } from '@memsvc/embeddings';
import { type Kysely, sql } from 'kysely';
import { beforeEach, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import type { MemsvcStore } from '../src/index.js';
import { describeEachEngine } from './support/each-engine.js';
import { rowsContaining } from './support/rows-containing.js';
import { useSuiteStore } from './support/suite-store.js';

const START = '2026-07-01T09:00:00.000Z';
const context = (tenant: string): CallContext => ({ tenant: toTenantId(tenant), actor: { id: `user:${tenant}` } });
const alice = context('alice');
const bob = context('bob');
/** A word nothing else contains: where it (or its stem) still appears, the erasure missed something. */
const MARKER = 'zanzibarquux';

async function refusal(promise: Promise<unknown>): Promise<{ code: string; field?: unknown } | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) => (error instanceof MemsvcError ? { code: error.code, field: error.data.field } : { code: String(error) }),
  );
}

const TABLES = [
  'api_keys',
  'memory_grant_defaults',
  'memory_grants',
  'memory_erasures',
  'memory_audit',
  'memory_links',
  'memory_import_ledger',
];

describeEachEngine('erasure for good', (engine) => {
  const clock = new ManualClock(START);
  const opened = useSuiteStore(engine, clock, { tables: TABLES, start: START });
  let store: MemsvcStore;
  let memories: MemoryEngine;

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
  });

  /** A memory of alice's kept in every place memsvc has: versions, links, a later turn's context, the ledger. */
  async function everywhere() {
    const turns = await memories.ingestConversation(alice, {
      turns: [
        { role: 'user', content: `My ${MARKER} passport number is 4471` },
        { role: 'user', content: 'It expires next spring, remind me in March' },
      ],
      date: new Date('2026-06-30T00:00:00Z'),
    });
    const [passport, later] = turns.memoryIds as [string, string];
    // The first version has a word of its own (quizzlewick): an erasure must take the words of every version.
    const home = await memories.create(alice, { tier: 'ltm', content: `I live in ${MARKER} city near the quizzlewick harbour` });
    clock.advance(60_000);
    await memories.update(alice, home.memory.id, { content: `I live in ${MARKER} town near the old harbour` }, 1);
    const moved = await memories.create(alice, { tier: 'ltm', content: 'I moved to Berlin last month', supersedes: [home.memory.id] });
    await store.importLedger.record(alice.tenant, {
      source: 'claude-code',
      root: '/home/alice',
      file: 'CLAUDE.md',
      section: 'passport',
      memoryId: passport,
      fingerprint: 'f1',
      memoryVersion: 1,
      importedAt: clock.now(),
    });
    const other = await memories.create(bob, { tier: 'ltm', content: 'Bob also wrote notes about harbours' });
    return { passport, later, home: home.memory.id, moved: moved.memory.id, bobs: other.memory.id };
  }

  it(
    verifies('R-ERASE-EVERYWHERE', "after an erasure the text is in no column of any table, and the ids only in the erasure's record"),
    async () => {
      const ids = await everywhere();
      const db = store.connection.db as Kysely<unknown>;
      expect(Object.keys(await rowsContaining(db, MARKER)).sort()).toEqual(
        expect.arrayContaining(['lexical_terms', 'memories', 'memory_audit', 'memory_terms']),
      );

      expect(await rowsContaining(db, ids.passport)).toMatchObject({ memory_import_ledger: 1 });
      const receipt = await memories.erase(alice, [ids.passport, ids.home]);
      expect(receipt.memoryIds).toEqual([ids.passport, ids.home].sort());
      expect(receipt.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(receipt.counts).toMatchObject({ memories: 2, vectors: 2, links: 2, importLedger: 1, searchContexts: 1 });
      expect(receipt.counts.versions).toBeGreaterThanOrEqual(3);
      expect(receipt.counts.lexicalPostings).toBeGreaterThan(0);
      expect(receipt.counts.termStatistics).toBeGreaterThan(0);

      // The words: nowhere, stems included (the lexical index keeps stems).
      expect(await rowsContaining(db, MARKER.slice(0, 10))).toEqual({});
      expect(await rowsContaining(db, 'passport number is 4471')).toEqual({});
      expect(await rowsContaining(db, 'quizzlewi')).toEqual({});
      // The ids: only in the record of the erasure and the audit's word-free events.
      for (const id of [ids.passport, ids.home]) {
        expect(Object.keys(await rowsContaining(db, id)).sort()).toEqual(['memory_audit', 'memory_erasures']);
        const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM memory_audit
          WHERE memory_id = ${id} AND (before IS NOT NULL OR after IS NOT NULL)`.execute(db);
        expect(Number(rows[0]?.n)).toBe(0);
      }
      // What did not name them is untouched: the later turn lost only its quote, the move stands, bob's memory too.
      expect((await memories.getUncounted(alice, ids.later)).content).toContain('expires next spring');
      expect((await memories.getUncounted(alice, ids.moved)).supersededBy).toBeNull();
      expect((await memories.getUncounted(bob, ids.bobs)).content).toContain('harbours');
      expect((await memories.recall(alice, { query: `${MARKER} passport` })).results.map((r) => r.memory.id)).not.toContain(ids.passport);

      const check = await memories.verifyErasure(alice, receipt.erasureId);
      expect(check).toMatchObject({ verified: true, digestMatches: true });
      // A row planted back is found by the check.
      await sql`INSERT INTO memory_links (id, user_id, source_memory_id, target_memory_id, target_locator, rel_type, origin)
        VALUES (gen_random_uuid(), 'alice', ${ids.moved}, NULL, ${`id:${ids.home}`}, 'relates-to', 'authored')`.execute(db);
      expect(await memories.verifyErasure(alice, receipt.erasureId)).toMatchObject({ verified: false, remaining: { links: 1 } });
    },
  );

  it(
    verifies(
      'R-ERASE-REFUSED',
      'erasing twice, another tenant’s id or a shared memory, and restoring an erased one, are refused; nothing changes',
    ),
    async () => {
      const ids = await everywhere();
      const receipt = await memories.erase(alice, [ids.passport]);
      const count = async () =>
        Number(
          (
            await sql<{ n: string }>`SELECT (SELECT count(*) FROM memories) + (SELECT count(*) FROM memory_erasures) AS n`.execute(
              store.connection.db,
            )
          ).rows[0]?.n,
        );
      const before = await count();

      expect(await refusal(memories.erase(alice, [ids.passport]))).toEqual({ code: 'ERASED', field: 'memoryIds' });
      expect(await refusal(memories.erase(alice, [ids.home, ids.passport]))).toEqual({ code: 'ERASED', field: 'memoryIds' });
      expect(await refusal(memories.erase(alice, [ids.bobs]))).toEqual({ code: 'NOT_FOUND', field: 'memoryIds' });
      expect(await refusal(memories.erase(alice, []))).toEqual({ code: 'INVALID_INPUT', field: 'memoryIds' });
      const restored = await memories.restore(alice, ids.passport).catch((error: MemsvcError) => error);
      expect(restored).toMatchObject({ code: 'ERASED', data: { erasureId: receipt.erasureId } });
      await memories.grant(alice, { space: 'team', grantee: { kind: 'user', id: 'bob' }, access: 'read-write' });
      const shared = await memories.create(alice, { tier: 'ltm', content: 'The team room code is 2291', scope: 'team' });
      expect(await refusal(memories.erase(bob, [shared.memory.id]))).toEqual({ code: 'FORBIDDEN', field: 'memoryIds' });
      expect(await count()).toBe(before + 1);
      expect((await memories.getUncounted(alice, ids.home)).content).toContain(MARKER);
    },
  );

  it(
    verifies('R-ERASE-USER', 'a whole user is erased in batches; a run cut short hides everything and the next run completes it'),
    async () => {
      const ids = await everywhere();
      for (let i = 0; i < 6; i++) await memories.create(alice, { tier: 'ltm', content: `${MARKER} note number ${i} about the garden` });
      await memories.delete(alice, ids.moved);
      const db = store.connection.db;
      // A failure in the middle of the run (as a killed process would leave it): the batch it hits rolls back.
      await sql`CREATE FUNCTION fail_on_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF OLD.content LIKE '%number 4%' THEN RAISE EXCEPTION 'cut short'; END IF; RETURN OLD; END $$`.execute(db);
      await sql`CREATE TRIGGER poison BEFORE DELETE ON memories FOR EACH ROW EXECUTE FUNCTION fail_on_poison()`.execute(db);
      try {
        await expect(store.erasures.eraseTenant(toTenantId('alice'), { id: 'user:alice' }, 2)).rejects.toThrow(/cut short/);
      } finally {
        await sql`DROP TRIGGER poison ON memories`.execute(db);
        await sql`DROP FUNCTION fail_on_poison()`.execute(db);
      }
      const { rows } = await sql<{ state: string; n: number }>`SELECT state, cardinality(memory_ids) AS n FROM memory_erasures`.execute(db);
      expect(rows).toEqual([{ state: 'pending', n: expect.any(Number) }]);
      // Half done, nothing of it is served: every read of alice finds nothing.
      expect((await memories.list(alice, { limit: 50 })).items).toEqual([]);
      expect((await memories.recall(alice, { query: `${MARKER} garden` })).results).toEqual([]);
      // Not one of them can be brought back meanwhile, erased yet or not.
      const left = await sql<{ id: string }>`SELECT id FROM memories WHERE user_id = 'alice'`.execute(db);
      expect(left.rows.length).toBeGreaterThan(0);
      for (const { id } of [...left.rows, { id: ids.later }])
        expect(await refusal(memories.restore(alice, id))).toMatchObject({ code: 'ERASED' });

      const receipt = await memories.eraseAll(alice);
      expect(receipt.state).toBe('completed');
      expect(receipt.memoryIds).toHaveLength(10);
      expect(await rowsContaining(db as Kysely<unknown>, MARKER.slice(0, 10))).toEqual({});
      expect((await memories.verifyErasure(alice, receipt.erasureId)).verified).toBe(true);
      expect((await memories.getUncounted(bob, ids.bobs)).userId).toBe('bob');
    },
  );
  it(
    verifies(
      'R-ERASE-USER-GRANTS',
      'erasing a whole user ends every grant it gave or received: no grantee sees its space names, and the check finds a grant put back',
    ),
    async () => {
      const SPACE = `project:${MARKER}`;
      await memories.create(alice, { tier: 'ltm', content: 'The falcon project ships in May', scope: SPACE });
      await memories.create(bob, { tier: 'ltm', content: 'Bob shares his reading list', scope: 'reading' });
      const given = await memories.grant(alice, { space: SPACE, grantee: { kind: 'user', id: 'bob' }, access: 'read' });
      await memories.chooseSharedDefault(bob, given.id, true);
      const received = await memories.grant(bob, { space: 'reading', grantee: { kind: 'user', id: 'alice' }, access: 'read' });
      await memories.chooseSharedDefault(alice, received.id, true);
      const key = await store.apiKeys.create({
        userId: toTenantId('alice'),
        name: 'alice agent',
        scopes: ['memories:read'],
        prefix: 'msk_test',
        keyHash: createHash('sha256').update('alice-key').digest('hex'),
      });
      await memories.grant(bob, { space: 'reading', grantee: { kind: 'api-key', id: key.id }, access: 'read' });
      expect((await memories.grants(bob)).received.map((grant) => grant.space)).toEqual([SPACE]);

      const receipt = await memories.eraseAll(alice);
      expect(receipt.counts.grants).toBe(5);
      // Bob sees nothing of alice's: neither the space she shared nor the grant he gave her.
      const bobs = await memories.grants(bob);
      expect(bobs.received).toEqual([]);
      expect(bobs.given).toEqual([]);
      expect(JSON.stringify(bobs)).not.toContain(MARKER);
      const db = store.connection.db;
      expect(await rowsContaining(db as Kysely<unknown>, MARKER.slice(0, 10))).toEqual({});
      expect(await rowsContaining(db as Kysely<unknown>, given.id)).toEqual({});

      expect(await memories.verifyErasure(alice, receipt.erasureId)).toMatchObject({ verified: true, remaining: { grants: 0 } });
      // A grant row put back (as it was before the erasure) is found by the check.
      await sql`INSERT INTO memory_grants (id, owner_id, space, grantee_kind, grantee_id, access, granted_by, created_at)
        VALUES (${given.id}, 'alice', ${SPACE}, 'user', 'bob', 'read', 'user:alice', ${new Date(START)})`.execute(db);
      expect(await memories.verifyErasure(alice, receipt.erasureId)).toMatchObject({ verified: false, remaining: { grants: 1 } });
    },
  );
});
