import { type CallContext, createMemoryEngine, isMemsvcError, type MemoryEngine, toTenantId } from '@memsvc/core';
import { ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { beforeEach, expect, it } from 'vitest';
import { codeOf } from './support/code-of.js';
import { describeEachStore } from './support/each-store.js';

/**
 * Unit vectors at a chosen cosine similarity to e1 = [1, 0, 0]. Vectors are stored as float4, so
 * these sit 1e-4 inside or outside a band; the exact edges are proven on decideWrite itself.
 */
const at = (similarity: number) => [similarity, Math.sqrt(1 - similarity ** 2), 0];
const VECTORS: Record<string, number[]> = {
  'The deploy target is eu-west-1': [1, 0, 0],
  'the deploy target is EU-WEST-1 ': [1, 0, 0],
  'Deploys go to eu-west-1 region': at(0.9701),
  'Deploys go to the eu-west-1 region now': at(0.9699),
  'The deploy target is us-east-1': at(0.8001),
  'Deploy target is ap-south-1': at(0.7999),
  'Unrelated: Alice likes tea': [0, 0, 1],
};

const context = (tenant: string): CallContext => ({ tenant: toTenantId(tenant), actor: { id: `user:${tenant}` } });
const alice = context('alice');
const bob = context('bob');

describeEachStore('memory engine', (kind) => {
  const clock = new ManualClock('2026-04-01T09:00:00.000Z');
  const store = kind.use({ clock, dimensions: 3 });
  const embedder = new StaticEmbedder(VECTORS, 'static-test', () => [0, 1, 0]);
  const makeEngine = (policy: 'flag' | 'supersede' = 'flag'): MemoryEngine =>
    createMemoryEngine({
      store: store.memories,
      embedder,
      clock,
      settings: {
        similarity: { duplicateThreshold: 0.97, contradictionThreshold: 0.8, contradictionThresholdMax: 0.97, contradictionPolicy: policy },
        importanceHalfLifeDays: 14,
      },
      grants: store.grants,
      erasures: store.erasures,
    });
  let memories: MemoryEngine;

  beforeEach(async () => {
    clock.set('2026-04-01T09:00:00.000Z');
    embedder.available = true;
    await store.reset();
    memories = makeEngine();
  });

  it('R-DUP-EXACT: identical content (ignoring case and spacing) collapses, even without vectors', async () => {
    embedder.available = false;
    const first = await memories.create(alice, { tier: 'ltm', content: 'The deploy target is eu-west-1' });
    const again = await memories.create(alice, { tier: 'ltm', content: 'the deploy target is EU-WEST-1 ' });
    expect(first).toMatchObject({ outcome: 'created', embedded: false });
    expect(again).toMatchObject({ outcome: 'duplicate', duplicate: { exact: true, similarity: 1 } });
    expect(again.memory.id).toBe(first.memory.id);
    expect((await memories.list(alice, { limit: 10 })).items).toHaveLength(1);
  });

  it('R-DUP-1: similarity above the duplicate threshold collapses; just below it does not', async () => {
    const original = await memories.create(alice, { tier: 'ltm', content: 'The deploy target is eu-west-1' });
    const atEdge = await memories.create(alice, { tier: 'ltm', content: 'Deploys go to eu-west-1 region' });
    expect(atEdge).toMatchObject({ outcome: 'duplicate', duplicate: { exact: false } });
    expect(atEdge.memory.id).toBe(original.memory.id);
    const below = await memories.create(alice, { tier: 'ltm', content: 'Deploys go to the eu-west-1 region now' });
    expect(below.outcome).toBe('created');
  });

  it('R-CONTRA-FLAG: the band [0.8, 0.97) flags both rows, keeps both visible and links them', async () => {
    const older = await memories.create(alice, { tier: 'ltm', content: 'The deploy target is eu-west-1' });
    const newer = await memories.create(alice, { tier: 'ltm', content: 'The deploy target is us-east-1' });
    expect(newer.outcome).toBe('created');
    expect(newer.contradictions).toEqual([{ memoryId: older.memory.id, similarity: expect.closeTo(0.8001, 4), policy: 'flag' }]);
    expect(newer.memory.contradicted).toBe(true);
    expect((await memories.get(alice, older.memory.id)).contradicted).toBe(true);
    expect((await memories.list(alice, { limit: 10 })).items.map((m) => m.id).sort()).toEqual([older.memory.id, newer.memory.id].sort());
    const links = await store.links();
    expect(links).toHaveLength(2);
    expect(links.every((link) => link.rel === 'contradicts')).toBe(true);
    // Both directions, so either memory leads to the other.
    expect(links.map((link) => [link.source, link.target]).sort()).toEqual(
      [
        [newer.memory.id, older.memory.id],
        [older.memory.id, newer.memory.id],
      ].sort(),
    );
    // Just below the band: no contradiction.
    const outside = await memories.create(alice, { tier: 'ltm', content: 'Deploy target is ap-south-1' });
    expect(outside.contradictions.filter((c) => c.memoryId === older.memory.id)).toEqual([]);
  });

  it('R-CONTRA-SUPERSEDE: policy supersede hides the older row from default reads, latest wins', async () => {
    memories = makeEngine('supersede');
    const older = await memories.create(alice, { tier: 'ltm', content: 'The deploy target is eu-west-1' });
    const newer = await memories.create(alice, { tier: 'ltm', content: 'The deploy target is us-east-1' });
    expect(newer.contradictions[0]).toMatchObject({ memoryId: older.memory.id, policy: 'supersede' });
    expect((await memories.list(alice, { limit: 10 })).items.map((m) => m.id)).toEqual([newer.memory.id]);
    const all = await memories.list(alice, { limit: 10, includeSuperseded: true });
    expect(all.items.find((m) => m.id === older.memory.id)?.supersededBy).toBe(newer.memory.id);
    expect(await store.links()).toEqual(
      expect.arrayContaining([
        { source: newer.memory.id, target: older.memory.id, rel: 'supersedes' },
        { source: older.memory.id, target: newer.memory.id, rel: 'superseded-by' },
      ]),
    );
  });

  it('R-DUP-RACE: two concurrent identical writes leave one row', async () => {
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => memories.create(alice, { tier: 'ltm', content: 'The deploy target is eu-west-1' })),
    );
    expect(new Set(results.map((r) => r.memory.id)).size).toBe(1);
    expect(results.filter((r) => r.outcome === 'created')).toHaveLength(1);
    expect(await store.rowCount()).toBe(1);
  });

  it('keeps tenants apart: the same content in two tenants is two memories, and ids do not cross', async () => {
    const a = await memories.create(alice, { tier: 'ltm', content: 'The deploy target is eu-west-1' });
    const b = await memories.create(bob, { tier: 'ltm', content: 'The deploy target is eu-west-1' });
    expect(b.outcome).toBe('created');
    expect(b.memory.id).not.toBe(a.memory.id);
    expect(await codeOf(memories.get(bob, a.memory.id))).toBe('NOT_FOUND');
    expect(await codeOf(memories.update(bob, a.memory.id, { content: 'hijack' }, 1))).toBe('NOT_FOUND');
    expect(await memories.delete(bob, a.memory.id)).toBe(false);
    expect((await memories.get(alice, a.memory.id)).content).toBe('The deploy target is eu-west-1');
  });

  it('writes without a vector when the provider is down, and reembed backfills it later', async () => {
    embedder.available = false;
    const created = await memories.create(alice, { tier: 'ltm', content: 'Unrelated: Alice likes tea' });
    expect(created).toMatchObject({ outcome: 'created', embedded: false, memory: { hasEmbedding: false } });
    expect(await codeOf(memories.reembed(alice, created.memory.id))).toBe('STORAGE_UNAVAILABLE');
    embedder.available = true;
    expect(await memories.reembed(alice, created.memory.id)).toMatchObject({
      hasEmbedding: true,
      embeddingModel: 'static-test',
      version: 1,
    });
  });

  it('short-term memories expire; reading one counts an access', async () => {
    const note = await memories.create(alice, { tier: 'stm', content: 'working on the parser today', ttlSeconds: 3600 });
    expect(note.memory.expiresAt?.toISOString()).toBe('2026-04-01T10:00:00.000Z');
    expect((await memories.get(alice, note.memory.id)).accessCount).toBe(1);
    expect((await memories.get(alice, note.memory.id)).accessCount).toBe(2);
    clock.advance(3600 * 1000);
    expect(await codeOf(memories.get(alice, note.memory.id))).toBe('NOT_FOUND');
  });

  it('updates under optimistic concurrency: a stale version is a CONFLICT naming the current version', async () => {
    const { memory } = await memories.create(alice, {
      tier: 'ltm',
      content: 'Unrelated: Alice likes tea',
      tags: ['prefs'],
      metadata: { source: 'chat', keep: true },
    });
    const updated = await memories.update(alice, memory.id, { metadata: { source: 'review', keep: null } }, 1);
    expect(updated).toMatchObject({ version: 2, tags: ['prefs'], metadata: { source: 'review' } });
    const error = await memories.update(alice, memory.id, { content: 'stale write' }, 1).catch((caught: unknown) => caught);
    expect(isMemsvcError(error, 'CONFLICT')).toBe(true);
    expect((error as { data: { currentVersion: number } }).data.currentVersion).toBe(2);
    expect((await memories.get(alice, memory.id)).content).toBe('Unrelated: Alice likes tea');
  });

  it('rejects bad input with INVALID_INPUT naming the field, and stores nothing', async () => {
    const attempts: [Promise<unknown>, string][] = [
      [memories.create(alice, { tier: 'ltm', content: '   ' }), 'content'],
      [memories.create(alice, { tier: 'ltm', content: 'x'.repeat(10_241) }), 'content'],
      [memories.create(alice, { tier: 'ltm', content: 'ok', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }), 'tags'],
      [memories.create(alice, { tier: 'ltm', content: 'ok', metadata: [1, 2] }), 'metadata'],
      [memories.create(alice, { tier: 'ltm', content: 'ok', importance: 2 }), 'importance'],
      [memories.create(alice, { tier: 'stm', content: 'ok', ttlSeconds: 5 }), 'ttl'],
      [memories.create(alice, { tier: 'ltm', content: 'ok', scope: '' }), 'scope'],
    ];
    for (const [attempt, field] of attempts) {
      const error = await attempt.catch((caught: unknown) => caught);
      expect(isMemsvcError(error, 'INVALID_INPUT'), field).toBe(true);
      expect((error as { data: { field: string } }).data.field).toBe(field);
    }
    expect((await memories.list(alice, { limit: 10 })).items).toEqual([]);
  });

  it('promotes a short-term memory in place, or collapses it into an existing long-term duplicate', async () => {
    const note = await memories.create(alice, { tier: 'stm', content: 'Unrelated: Alice likes tea' });
    const promoted = await memories.promote(alice, note.memory.id);
    expect(promoted).toMatchObject({ outcome: 'promoted', memory: { id: note.memory.id, tier: 'ltm', expiresAt: null, version: 2 } });
    expect((await memories.promote(alice, note.memory.id)).outcome).toBe('already-long-term');

    const fact = await memories.create(alice, { tier: 'ltm', content: 'The deploy target is eu-west-1' });
    const echo = await memories.create(alice, { tier: 'stm', content: 'Deploys go to the eu-west-1 region now', scope: 'other' });
    const echoInScope = await memories.create(alice, { tier: 'stm', content: 'Deploys go to eu-west-1 region' });
    // A short-term write that duplicates a long-term fact already collapses into it at write time.
    expect(echoInScope).toMatchObject({ outcome: 'duplicate', memory: { id: fact.memory.id } });
    expect((await memories.promote(alice, echo.memory.id)).outcome).toBe('promoted');
  });

  it('deletes restorably, restores an earlier version, and keeps the whole story in the audit trail', async () => {
    const { memory } = await memories.create(alice, { tier: 'ltm', content: 'Unrelated: Alice likes tea' });
    await memories.update(alice, memory.id, { content: 'Alice switched to coffee' }, 1);
    expect(await memories.delete(alice, memory.id)).toBe(true);
    expect(await codeOf(memories.get(alice, memory.id))).toBe('NOT_FOUND');
    expect(await memories.restore(alice, memory.id)).toMatchObject({ content: 'Alice switched to coffee', deletedAt: null, version: 4 });
    const back = await memories.restore(alice, memory.id, 1);
    expect(back).toMatchObject({ content: 'Unrelated: Alice likes tea', version: 5, hasEmbedding: true });
    expect(await codeOf(memories.restore(alice, memory.id, 9))).toBe('INVALID_INPUT');
    const trail = await memories.audit(alice, memory.id);
    expect(trail.map((entry) => entry.action)).toEqual(['restore', 'restore', 'delete', 'update', 'create']);
    expect(trail[0]?.after).toMatchObject({ restoredFromVersion: 1 });
    expect(await codeOf(memories.audit(bob, memory.id))).toBe('NOT_FOUND');
  });

  it('writes the create audit entry in the insert statement, equal to the stored row, on the plain and the contradiction path', async () => {
    const older = await memories.create(alice, { tier: 'ltm', content: 'The deploy target is eu-west-1' });
    const plain = await memories.create(alice, {
      tier: 'stm',
      content: 'Unrelated: Alice likes tea',
      tags: ['deploy'],
      metadata: { source: 'runbook', nested: { depth: 2 } },
      importance: 0.7,
      ttlSeconds: 3600,
    });
    const contradicting = await memories.create(alice, { tier: 'ltm', content: 'The deploy target is us-east-1', pinned: true });
    expect(contradicting.contradictions).toHaveLength(1);
    for (const created of [older, plain, contradicting]) {
      const entry = (await memories.audit(alice, created.memory.id)).at(-1);
      expect(entry).toMatchObject({ action: 'create', version: 1, before: null });
      // Dates travel as ISO strings in the snapshot; everything else is the row as it was stored.
      expect(entry?.after).toEqual(JSON.parse(JSON.stringify(created.memory)));
    }
    for (const created of [plain, contradicting]) {
      expect(await store.memories.findById(alice.tenant, created.memory.id)).toEqual(created.memory);
    }
  });

  it('bulk-deletes, reporting ids that were not there without failing the rest', async () => {
    const one = await memories.create(alice, { tier: 'ltm', content: 'Unrelated: Alice likes tea' });
    const two = await memories.create(alice, { tier: 'ltm', content: 'The deploy target is eu-west-1' });
    const result = await memories.bulkDelete(alice, [one.memory.id, two.memory.id, one.memory.id, 'not-an-id']);
    expect(result).toEqual({ deleted: [one.memory.id, two.memory.id], notFound: ['not-an-id'] });
    expect(await codeOf(memories.bulkDelete(alice, []))).toBe('INVALID_INPUT');
  });
});
