import { type CallContext, createMemoryEngine, type MemoryEngine, toTenantId } from '@memsvc/core';
import { ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { beforeEach, expect, it } from 'vitest';
import { codeOf } from './support/code-of.js';
import { describeEachStore } from './support/each-store.js';

/** Unit vectors at a chosen cosine similarity to [1, 0, 0]: inside the contradiction band [0.8, 0.97). */
const at = (similarity: number) => [similarity, Math.sqrt(1 - similarity ** 2), 0];
const VECTORS: Record<string, number[]> = {
  'The deploy target is eu-west-1': [1, 0, 0],
  'The deploy target is us-east-1': at(0.85),
  // 0.9 from the first, 0.765 from the second: it contradicts the first alone.
  'The deploy target is ap-south-1': [0.9, 0, Math.sqrt(1 - 0.81)],
  'Unrelated: Alice likes tea': [0, 0, 1],
};

const context = (tenant: string): CallContext => ({ tenant: toTenantId(tenant), actor: { id: `user:${tenant}` } });
const alice = context('alice');
const bob = context('bob');

describeEachStore('memory links', (kind) => {
  const clock = new ManualClock('2026-04-01T09:00:00.000Z');
  const store = kind.use({ clock, dimensions: 3 });
  const embedder = new StaticEmbedder(VECTORS, 'static-test', () => [0, 1, 0]);
  const engineWith = (policy: 'flag' | 'supersede'): MemoryEngine =>
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

  beforeEach(async () => {
    clock.set('2026-04-01T09:00:00.000Z');
    await store.reset();
  });

  it('reads a memory’s links in both directions, oldest first, as the write recorded them', async () => {
    const memories = engineWith('flag');
    const older = (await memories.create(alice, { tier: 'ltm', content: 'The deploy target is eu-west-1' })).memory;
    clock.advance(60_000);
    const newer = (await memories.create(alice, { tier: 'ltm', content: 'The deploy target is us-east-1' })).memory;

    const links = await memories.links(alice, older.id);
    expect(links).toHaveLength(2);
    expect(links.map((link) => [link.sourceMemoryId, link.rel, link.targetMemoryId]).sort()).toEqual(
      [
        [newer.id, 'contradicts', older.id],
        [older.id, 'contradicts', newer.id],
      ].sort(),
    );
    for (const link of links) {
      expect(link).toMatchObject({ origin: 'derived', targetLocator: `id:${link.targetMemoryId}`, note: null });
      expect(link.score).toBeCloseTo(0.85, 3);
      expect(link.createdAt.toISOString()).toBe('2026-04-01T09:01:00.000Z');
    }
    // The same two links from the other end: every link touches both memories.
    expect((await memories.links(alice, newer.id)).map((link) => link.id).sort()).toEqual(links.map((link) => link.id).sort());
    // What the store holds behind the port agrees.
    expect(await store.links()).toHaveLength(2);
  });

  it('orders links oldest first and stops at the limit', async () => {
    const memories = engineWith('flag');
    const first = (await memories.create(alice, { tier: 'ltm', content: 'The deploy target is eu-west-1' })).memory;
    clock.advance(60_000);
    const second = (await memories.create(alice, { tier: 'ltm', content: 'The deploy target is us-east-1' })).memory;
    clock.advance(60_000);
    const third = (await memories.create(alice, { tier: 'ltm', content: 'The deploy target is ap-south-1' })).memory;
    expect(third.contradicted).toBe(true);

    const links = await memories.links(alice, first.id);
    const others = links.map((link) => (link.sourceMemoryId === first.id ? link.targetMemoryId : link.sourceMemoryId));
    expect(others).toEqual([second.id, second.id, third.id, third.id]);
    expect(links.map((link) => link.createdAt.getTime())).toEqual([...links.map((link) => link.createdAt.getTime())].sort());
    expect(await memories.links(alice, first.id, 3)).toHaveLength(3);
    expect(await codeOf(store.memories.links(alice.tenant, first.id, 0))).toBe('INVALID_INPUT');
  });

  it('reads supersession links both ways, and keeps them while a memory is deleted', async () => {
    const memories = engineWith('supersede');
    const older = (await memories.create(alice, { tier: 'ltm', content: 'The deploy target is eu-west-1' })).memory;
    const newer = (await memories.create(alice, { tier: 'ltm', content: 'The deploy target is us-east-1' })).memory;
    const expected = [
      [newer.id, 'supersedes', older.id],
      [older.id, 'superseded-by', newer.id],
    ].sort();
    const seen = async (id: string) =>
      (await memories.links(alice, id)).map((link) => [link.sourceMemoryId, link.rel, link.targetMemoryId]).sort();
    expect(await seen(older.id)).toEqual(expected);
    expect(await memories.delete(alice, newer.id)).toBe(true);
    expect(await seen(newer.id)).toEqual(expected);
    expect(await seen(older.id)).toEqual(expected);
  });

  it('reads nothing across tenants, nor for an unknown or malformed id', async () => {
    const memories = engineWith('flag');
    const older = (await memories.create(alice, { tier: 'ltm', content: 'The deploy target is eu-west-1' })).memory;
    await memories.create(alice, { tier: 'ltm', content: 'The deploy target is us-east-1' });
    const lonely = (await memories.create(alice, { tier: 'ltm', content: 'Unrelated: Alice likes tea' })).memory;

    expect(await memories.links(alice, older.id)).toHaveLength(2);
    expect(await memories.links(bob, older.id)).toEqual([]);
    expect(await memories.links(alice, lonely.id)).toEqual([]);
    expect(await memories.links(alice, '0196a6a0-0000-7000-8000-000000000000')).toEqual([]);
    expect(await memories.links(alice, 'not-a-memory-id')).toEqual([]);
  });
});
