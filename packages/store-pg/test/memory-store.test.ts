import { isMemsvcError, type TenantId, toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { MemsvcStore } from '../src/index.js';
import { describeEachEngine } from './support/each-engine.js';
import { describeEachStore } from './support/each-store.js';
import { openTestStore } from './support/open-test-store.js';

const alice = toTenantId('alice@example.com');
const bob = toTenantId('bob');
const actor = { id: 'test' };
const HOUR = 3_600_000;

describeEachStore('memory store', (kind) => {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const store = kind.use({ clock, dimensions: 3 });

  beforeEach(async () => {
    clock.set('2026-03-01T12:00:00.000Z');
    await store.reset();
  });
  const count = (tenant: TenantId) => store.rowCount(tenant);

  it('stores a memory and reads it back without its vector', async () => {
    const created = await store.memories.insertAsGiven(
      alice,
      {
        tier: 'ltm',
        content: 'Alice prefers tabs',
        tags: ['prefs'],
        metadata: { source: 'chat' },
        importance: 0.7,
        embedding: { vector: [1, 0, 0], model: 'm' },
      },
      actor,
    );
    expect(created).toMatchObject({
      userId: alice,
      tier: 'ltm',
      content: 'Alice prefers tabs',
      tags: ['prefs'],
      metadata: { source: 'chat' },
      importance: 0.7,
      version: 1,
      hasEmbedding: true,
      embeddingModel: 'm',
      accessCount: 0,
      pinned: false,
      stale: false,
      contradicted: false,
      deletedAt: null,
    });
    expect(created.createdAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    const read = await store.memories.findById(alice, created.id);
    expect(read).toEqual(created);
    expect(read).not.toHaveProperty('embedding');
  });

  it("never shows one tenant another tenant's memory", async () => {
    const secret = await store.memories.insertAsGiven(
      alice,
      { tier: 'ltm', content: 'alice only', embedding: { vector: [0, 1, 0], model: 'm' } },
      actor,
    );
    expect(await store.memories.findById(bob, secret.id)).toBeUndefined();
    expect((await store.memories.list(bob, { limit: 10 })).items).toEqual([]);
    expect(await store.memories.nearest(bob, [0, 1, 0], 5)).toEqual([]);
    expect(await store.memories.softDelete(bob, secret.id, actor)).toBe(false);
    expect(await store.memories.setEmbedding(bob, secret.id, { vector: [1, 1, 1], model: 'x' })).toBe(false);
    expect((await store.memories.findById(alice, secret.id))?.deletedAt).toBeNull();
  });

  it('hides short-term memories once they expire', async () => {
    const note = await store.memories.insertAsGiven(
      alice,
      { tier: 'stm', content: 'working on the parser today', expiresAt: new Date(clock.now().getTime() + HOUR) },
      actor,
    );
    expect(await store.memories.findById(alice, note.id)).toBeDefined();
    clock.advance(HOUR - 1);
    expect((await store.memories.list(alice, { limit: 10 })).items.map((m) => m.id)).toEqual([note.id]);
    clock.advance(1);
    expect(await store.memories.findById(alice, note.id)).toBeUndefined();
    expect((await store.memories.list(alice, { limit: 10, includeDeleted: true })).items).toEqual([]);
  });

  it('pages newest first across both tiers with no gap and no repeat, even while rows are added', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const tier = i % 2 === 0 ? 'ltm' : 'stm';
      const memory = await store.memories.insertAsGiven(
        alice,
        { tier, content: `memory ${i}`, expiresAt: tier === 'stm' ? new Date(clock.now().getTime() + HOUR) : null },
        actor,
      );
      ids.push(memory.id);
      clock.advance(1);
    }
    const first = await store.memories.list(alice, { limit: 3 });
    await store.memories.insertAsGiven(alice, { tier: 'ltm', content: 'added between pages' }, actor);
    const second = await store.memories.list(alice, { limit: 3, cursor: first.nextCursor });
    const third = await store.memories.list(alice, { limit: 3, cursor: second.nextCursor });
    expect([...first.items, ...second.items, ...third.items].map((m) => m.id)).toEqual([...ids].reverse());
    expect(third.nextCursor).toBeUndefined();
    expect((await store.memories.list(alice, { limit: 100, tier: 'stm' })).items.map((m) => m.content)).toEqual([
      'memory 5',
      'memory 3',
      'memory 1',
    ]);
  });

  it('rejects a bad page size or cursor with INVALID_INPUT naming the field', async () => {
    for (const [query, field] of [
      [{ limit: 0 }, 'limit'],
      [{ limit: 1001 }, 'limit'],
      [{ limit: 10, cursor: 'not-a-cursor' }, 'cursor'],
    ] as const) {
      const error = await store.memories.list(alice, query).catch((caught: unknown) => caught);
      expect(isMemsvcError(error, 'INVALID_INPUT')).toBe(true);
      expect((error as { data: { field: string } }).data.field).toBe(field);
    }
  });

  it('soft-deletes with a version bump and an audit row, and can still show the deleted row', async () => {
    const memory = await store.memories.insertAsGiven(alice, { tier: 'ltm', content: 'to forget' }, actor);
    clock.advance(1000);
    expect(await store.memories.softDelete(alice, memory.id, { id: 'agent:k1' })).toBe(true);
    expect(await store.memories.softDelete(alice, memory.id, actor)).toBe(false);
    expect(await store.memories.findById(alice, memory.id)).toBeUndefined();
    const deleted = await store.memories.findById(alice, memory.id, { includeDeleted: true });
    expect(deleted).toMatchObject({ version: 2, deletedAt: clock.now() });

    // Oldest first, as the rows were written.
    const trail = [...(await store.memories.auditTrail(alice, memory.id, 10))].reverse();
    expect(await store.memories.auditTrail(bob, memory.id, 10)).toEqual([]);
    expect(trail.map((row) => [row.action, row.actor, row.version])).toEqual([
      ['create', 'test', 1],
      ['delete', 'agent:k1', 2],
    ]);
    // before: what the delete changed, as it was; after: the whole memory as the delete left it.
    expect(trail[1]?.before).toEqual({ deletedAt: null, version: 1, updatedAt: expect.any(String) });
    expect(trail[1]?.after).toMatchObject({ content: 'to forget', deletedAt: clock.now().toISOString() });
  });

  it('lists only the deleted, restorable memories when asked, newest first, paged, with the other filters', async () => {
    const kept = await store.memories.insertAsGiven(alice, { tier: 'ltm', content: 'kept', tags: ['a'] }, actor);
    const first = await store.memories.insertAsGiven(alice, { tier: 'ltm', content: 'first gone', tags: ['a'] }, actor);
    const second = await store.memories.insertAsGiven(alice, { tier: 'ltm', content: 'second gone', tags: ['b'] }, actor);
    const brief = await store.memories.insertAsGiven(
      alice,
      { tier: 'stm', content: 'brief gone', expiresAt: new Date(clock.now().getTime() + HOUR) },
      actor,
    );
    const other = await store.memories.insertAsGiven(bob, { tier: 'ltm', content: "bob's gone" }, actor);
    for (const [tenant, memory] of [
      [alice, first],
      [alice, second],
      [alice, brief],
      [bob, other],
    ] as const) {
      await store.memories.softDelete(tenant, memory.id, actor);
    }
    const ids = async (query: Partial<Parameters<typeof store.memories.list>[1]>) =>
      (await store.memories.list(alice, { limit: 10, onlyDeleted: true, ...query })).items.map((memory) => memory.id);

    expect(await ids({})).toEqual([brief.id, second.id, first.id]);
    expect(await ids({ tags: ['a'] })).toEqual([first.id]);
    const page = await store.memories.list(alice, { limit: 2, onlyDeleted: true });
    expect(page.items.map((memory) => memory.id)).toEqual([brief.id, second.id]);
    expect(await ids({ cursor: page.nextCursor })).toEqual([first.id]);
    expect(await ids({})).not.toContain(kept.id);

    // An expired short-term row is gone for good: nothing to restore.
    clock.advance(2 * HOUR);
    expect(await ids({})).toEqual([second.id, first.id]);
    await store.memories.restore(alice, first.id, actor);
    expect(await ids({})).toEqual([second.id]);
  });

  it('refuses bad input and writes nothing', async () => {
    const attempts = [
      store.memories.insertAsGiven(alice, { tier: 'stm', content: 'no expiry' }, actor),
      store.memories.insertAsGiven(alice, { tier: 'ltm', content: 'expiring ltm', expiresAt: new Date() }, actor),
      store.memories.insertAsGiven(alice, { tier: 'ltm', content: 'nan', embedding: { vector: [Number.NaN, 0, 0], model: 'm' } }, actor),
      store.memories.insertAsGiven(alice, { tier: 'ltm', content: 'empty', embedding: { vector: [], model: 'm' } }, actor),
    ];
    for (const attempt of attempts) {
      expect(isMemsvcError(await attempt.catch((caught: unknown) => caught), 'INVALID_INPUT')).toBe(true);
    }
    expect(await count(alice)).toBe(0);
    expect(await store.auditRowCount()).toBe(0);
  });

  it('finds the nearest memories of a tenant by cosine similarity, skipping deleted and unembedded rows', async () => {
    const east = await store.memories.insertAsGiven(
      alice,
      { tier: 'ltm', content: 'east', embedding: { vector: [1, 0, 0], model: 'm' } },
      actor,
    );
    const northEast = await store.memories.insertAsGiven(
      alice,
      { tier: 'ltm', content: 'north-east', embedding: { vector: [1, 1, 0], model: 'm' } },
      actor,
    );
    const north = await store.memories.insertAsGiven(
      alice,
      { tier: 'ltm', content: 'north', embedding: { vector: [0, 1, 0], model: 'm' } },
      actor,
    );
    await store.memories.insertAsGiven(alice, { tier: 'ltm', content: 'no vector yet' }, actor);
    await store.memories.insertAsGiven(bob, { tier: 'ltm', content: "bob's east", embedding: { vector: [1, 0, 0], model: 'm' } }, actor);

    const nearest = await store.memories.nearest(alice, [1, 0.1, 0], 10);
    expect(nearest.map((n) => n.memory.id)).toEqual([east.id, northEast.id, north.id]);
    expect(nearest[0]?.similarity).toBeCloseTo(1 / Math.sqrt(1.01), 5);

    await store.memories.softDelete(alice, east.id, actor);
    expect((await store.memories.nearest(alice, [1, 0.1, 0], 1)).map((n) => n.memory.id)).toEqual([northEast.id]);
  });

  it('backfills a vector later without bumping the version', async () => {
    const memory = await store.memories.insertAsGiven(alice, { tier: 'ltm', content: 'stored while the provider was down' }, actor);
    expect(memory.hasEmbedding).toBe(false);
    expect(await store.memories.setEmbedding(alice, memory.id, { vector: [0, 0, 1], model: 'm2' })).toBe(true);
    expect(await store.memories.findById(alice, memory.id)).toMatchObject({ hasEmbedding: true, embeddingModel: 'm2', version: 1 });
  });

  it('keeps every one of many concurrent inserts, with distinct, time-ordered ids', async () => {
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) => store.memories.insertAsGiven(alice, { tier: 'ltm', content: `parallel ${i}` }, actor)),
    );
    const ids = created.map((m) => m.id);
    expect(new Set(ids).size).toBe(40);
    expect(await count(alice)).toBe(40);
    // Ids are minted in call order, so they increase with it, and listing returns them newest first.
    expect(ids).toEqual([...ids].sort());
    const listed = (await store.memories.list(alice, { limit: 100 })).items.map((m) => m.id);
    expect(listed).toEqual([...ids].reverse());
  });
});

describeEachEngine('memory store on a database', (engine) => {
  let store: MemsvcStore;
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');

  beforeAll(async () => {
    store = await openTestStore({ database: await engine.freshDatabaseUrl(), clock, vector: { dimensions: 3 } });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('reports a failing database on delete as a failure, never as "not found"', async () => {
    const memory = await store.memories.insertAsGiven(alice, { tier: 'ltm', content: 'kept through an outage' }, actor);
    await sql`ALTER TABLE memories RENAME TO memories_unreachable`.execute(store.connection.db);
    try {
      await expect(store.memories.softDelete(alice, memory.id, actor)).rejects.toThrow(/memories/);
    } finally {
      await sql`ALTER TABLE memories_unreachable RENAME TO memories`.execute(store.connection.db);
    }
    expect(await store.memories.findById(alice, memory.id)).toMatchObject({ version: 1, deletedAt: null });
  });
});
