import {
  type CallContext,
  CONTRADICTION_RESOLVE_ACTION,
  type ContradictedPair,
  createMemoryEngine,
  Maintenance,
  type MemoryEngine,
  toTenantId,
} from '@memsvc/core';
import { ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { sql } from 'kysely';
import { beforeEach, expect, it } from 'vitest';
import { codeOf } from './support/code-of.js';
import { describeEachEngine } from './support/each-engine.js';
import { TEST_LIFECYCLE_SETTINGS } from './support/maintenance-settings.js';
import { useSuiteStore } from './support/suite-store.js';

const START = '2026-05-01T09:00:00.000Z';
const DAY = 86_400_000;
const DIMENSIONS = 16;

/** A unit vector on `axis`, or at cosine `similarity` from it towards `towards`: two planes that share no axis never look alike. */
function vector(axis: number, towards?: number, similarity = 1): number[] {
  const values = new Array<number>(DIMENSIONS).fill(0);
  values[axis] = similarity;
  if (towards !== undefined) values[towards] = Math.sqrt(1 - similarity ** 2);
  return values;
}

const TEXT = {
  deployEu: 'The deploy target is eu-west-1',
  deployUs: 'The deploy target is us-east-1',
  tea: 'Alice prefers tea',
  greenTea: 'Alice prefers green tea',
  port5432: 'The staging database listens on 5432',
  port6432: 'The staging database listens on 6432',
  ttl60: 'The cache TTL is 60 seconds',
  ttl90: 'The cache TTL is 90 seconds',
  ttl120: 'The cache TTL is 120 seconds',
  kayakGarage: 'The kayak is in the garage',
  kayakShed: 'The kayak is in the garage, behind the bikes',
  standupNine: 'Standup is at 9:30',
  standupNineAgain: 'Standup is at 9:30 every weekday',
} as const;

const VECTORS: Record<string, number[]> = {
  [TEXT.deployEu]: vector(0),
  [TEXT.deployUs]: vector(0, 1, 0.9),
  [TEXT.tea]: vector(2),
  [TEXT.greenTea]: vector(2, 3, 0.88),
  [TEXT.port5432]: vector(4),
  [TEXT.port6432]: vector(4, 5, 0.92),
  // 90 and 120 each contradict 60 (0.85), not each other (0.85² = 0.72).
  [TEXT.ttl60]: vector(6),
  [TEXT.ttl90]: vector(6, 7, 0.85),
  [TEXT.ttl120]: vector(6, 8, 0.85),
  // Near-duplicates in the merge band [0.85, 0.97), stored without the write rules.
  [TEXT.kayakGarage]: vector(9),
  [TEXT.kayakShed]: vector(9, 10, 0.9),
  [TEXT.standupNine]: vector(11),
  [TEXT.standupNineAgain]: vector(11, 12, 0.9),
};

const context = (tenant: string): CallContext => ({ tenant: toTenantId(tenant), actor: { id: `user:${tenant}` } });
const alice = context('alice');
const bob = context('bob');

describeEachEngine('review store: contradicted pairs, resolutions, fading memories, approved consolidation', (engine) => {
  const clock = new ManualClock(START);
  const suite = useSuiteStore(engine, clock, { tables: ['memories', 'memory_audit', 'memory_links'], start: START });
  const embedder = new StaticEmbedder(VECTORS, 'static-test', () => vector(15));
  let memories: MemoryEngine;

  beforeEach(async () => {
    // The suite store is opened without a vector size; the first vector fixes it.
    memories = createMemoryEngine({
      store: suite.current.memories,
      embedder,
      clock,
      grants: suite.current.grants,
      erasures: suite.current.erasures,
    });
  });

  const store = () => suite.current;
  const review = () => store().review;
  const maintenance = () =>
    new Maintenance({
      lifecycle: store().lifecycle,
      memories: store().memories,
      reindexStore: store().reindex,
      jobs: store().reindexJobs,
      review: review(),
      embedder,
      clock,
      settings: TEST_LIFECYCLE_SETTINGS,
    });
  const create = async (who: CallContext, content: string) => {
    clock.advance(1000);
    return (await memories.create(who, { content, tier: 'ltm' })).memory;
  };
  const pairIds = (pair: ContradictedPair) => [pair.newer.content, pair.older.content];
  const seen = (pair: ContradictedPair) =>
    [
      { id: pair.newer.id, version: pair.newer.version },
      { id: pair.older.id, version: pair.older.version },
    ] as const;
  const auditOf = async (id: string) =>
    sql<{ action: string; actor: string; version: number; after: Record<string, unknown> }>`
      SELECT action, actor, version, after FROM memory_audit WHERE memory_id = ${id} ORDER BY id`
      .execute(store().connection.db)
      .then((result) => result.rows);
  const linkCount = async () =>
    Number(
      (await sql<{ n: string }>`SELECT count(*) AS n FROM memory_links WHERE rel_type = 'contradicts'`.execute(store().connection.db))
        .rows[0]?.n,
    );

  it('lists the open pairs of the tenant only, newest first, in pages, and finds one pair in either order', async () => {
    await create(alice, TEXT.deployEu);
    await create(alice, TEXT.deployUs);
    await create(alice, TEXT.tea);
    await create(alice, TEXT.greenTea);
    await create(alice, TEXT.port5432);
    await create(alice, TEXT.port6432);
    await create(bob, TEXT.tea);
    await create(bob, TEXT.greenTea);

    const first = await review().contradictedPairs(alice.tenant, { limit: 2 });
    expect(first.pairs.map(pairIds)).toEqual([
      [TEXT.port6432, TEXT.port5432],
      [TEXT.greenTea, TEXT.tea],
    ]);
    expect(first.pairs[0]?.similarity).toBeCloseTo(0.92, 4);
    expect(first.pairs.every((pair) => pair.newer.userId === alice.tenant && pair.older.userId === alice.tenant)).toBe(true);
    const second = await review().contradictedPairs(alice.tenant, { limit: 2, cursor: first.nextCursor });
    expect(second.pairs.map(pairIds)).toEqual([[TEXT.deployUs, TEXT.deployEu]]);
    expect(second.nextCursor).toBeUndefined();

    const bobs = await review().contradictedPairs(bob.tenant, { limit: 10 });
    expect(bobs.pairs.map(pairIds)).toEqual([[TEXT.greenTea, TEXT.tea]]);

    const tea = first.pairs[1];
    if (!tea) throw new Error('the tea pair is listed');
    expect((await review().contradictedPair(alice.tenant, tea.older.id, tea.newer.id))?.newer.id).toBe(tea.newer.id);
    expect(await review().contradictedPair(bob.tenant, tea.older.id, tea.newer.id)).toBeUndefined();
    expect(await review().contradictedPair(alice.tenant, tea.older.id, 'not-a-uuid')).toBeUndefined();
    expect(await codeOf(review().contradictedPairs(alice.tenant, { limit: 2, cursor: 'forged' }))).toBe('INVALID_INPUT');
  });

  it('keep both: clears both marks as new versions audited as the person, keeps the links, and the pair leaves the queue', async () => {
    await create(alice, TEXT.tea);
    await create(alice, TEXT.greenTea);
    const [pair] = (await review().contradictedPairs(alice.tenant, { limit: 10 })).pairs;
    if (!pair) throw new Error('a pair');
    const links = await linkCount();

    const result = await maintenance().resolveContradiction(alice, {
      pair: seen(pair),
      outcome: 'keep-both',
    });
    expect(result.deletedId).toBeUndefined();
    expect(result.kept.map((memory) => [memory.id, memory.contradicted, memory.version])).toEqual([
      [pair.newer.id, false, pair.newer.version + 1],
      [pair.older.id, false, pair.older.version + 1],
    ]);
    for (const memory of [pair.newer, pair.older]) {
      const last = (await auditOf(memory.id)).at(-1);
      expect(last).toMatchObject({ action: CONTRADICTION_RESOLVE_ACTION, actor: 'user:alice', version: memory.version + 1 });
      expect(last?.after).toMatchObject({ contradicted: false, resolution: 'keep-both', pair: [pair.newer.id, pair.older.id] });
      expect((await memories.getUncounted(alice, memory.id)).contradicted).toBe(false);
    }
    expect(await linkCount()).toBe(links);
    expect((await review().contradictedPairs(alice.tenant, { limit: 10 })).pairs).toEqual([]);
  });

  it('refuses a pair seen at another version, and another tenant’s pair, changing nothing', async () => {
    await create(alice, TEXT.tea);
    await create(alice, TEXT.greenTea);
    const [pair] = (await review().contradictedPairs(alice.tenant, { limit: 10 })).pairs;
    if (!pair) throw new Error('a pair');
    await memories.update(alice, pair.older.id, { tags: ['edited'] }, pair.older.version);

    expect(await codeOf(maintenance().resolveContradiction(alice, { pair: seen(pair), outcome: 'keep-both' }))).toBe('CONFLICT');
    expect(await codeOf(maintenance().resolveContradiction(bob, { pair: seen(pair), outcome: 'keep-newer' }))).toBe('NOT_FOUND');
    expect(await codeOf(maintenance().resolveContradiction(bob, { pair: seen(pair), outcome: 'keep-both' }))).toBe('NOT_FOUND');
    expect(await codeOf(maintenance().resolveContradiction(alice, { pair: seen(pair), outcome: 'drop-both' as never }))).toBe(
      'INVALID_INPUT',
    );
    // The store refuses a stale version by itself too, before writing anything.
    expect(
      await codeOf(
        review().clearContradicted(alice.tenant, [{ id: pair.newer.id }, { id: pair.older.id, expectedVersion: pair.older.version }], {
          actor: alice.actor,
          action: CONTRADICTION_RESOLVE_ACTION,
          details: {},
          keepWhileOpen: false,
        }),
      ),
    ).toBe('CONFLICT');

    const still = await review().contradictedPairs(alice.tenant, { limit: 10 });
    expect(still.pairs.map((open) => [open.newer.contradicted, open.older.contradicted])).toEqual([[true, true]]);
    expect((await auditOf(pair.newer.id)).map((entry) => entry.action)).toEqual(['create']);
  });

  it('keep the older / keep the newer: deletes the other (restorable) and clears the kept mark once no open pair is left', async () => {
    const ttl60 = await create(alice, TEXT.ttl60);
    const ttl90 = await create(alice, TEXT.ttl90);
    const ttl120 = await create(alice, TEXT.ttl120);
    const pairOf = async (a: string, b: string) => {
      const pair = await review().contradictedPair(alice.tenant, a, b);
      if (!pair) throw new Error('an open pair');
      return pair;
    };

    // 60 s against 90 s: keep the older (60 s). 60 s still contradicts 120 s, so it stays marked.
    const first = await maintenance().resolveContradiction(alice, { pair: seen(await pairOf(ttl60.id, ttl90.id)), outcome: 'keep-older' });
    expect(first.deletedId).toBe(ttl90.id);
    expect(first.kept.map((memory) => [memory.id, memory.contradicted])).toEqual([[ttl60.id, true]]);
    expect((await auditOf(ttl90.id)).at(-1)).toMatchObject({ action: 'delete', actor: 'user:alice' });
    const open = await review().contradictedPairs(alice.tenant, { limit: 10 });
    expect(open.pairs.map(pairIds)).toEqual([[TEXT.ttl120, TEXT.ttl60]]);

    // 60 s against 120 s: keep the newer. 120 s has no other pair, so its mark goes.
    const second = await maintenance().resolveContradiction(alice, {
      pair: seen(await pairOf(ttl60.id, ttl120.id)),
      outcome: 'keep-newer',
    });
    expect(second.deletedId).toBe(ttl60.id);
    expect(second.kept.map((memory) => [memory.id, memory.contradicted, memory.version])).toEqual([[ttl120.id, false, 2]]);
    expect((await auditOf(ttl120.id)).at(-1)).toMatchObject({
      action: CONTRADICTION_RESOLVE_ACTION,
      actor: 'user:alice',
      after: { resolution: 'keep-newer', pair: [ttl120.id, ttl60.id] },
    });
    expect((await review().contradictedPairs(alice.tenant, { limit: 10 })).pairs).toEqual([]);

    // A deleted one comes back like any deleted memory, still marked: its pair is open again.
    await memories.restore(alice, ttl60.id);
    expect((await review().contradictedPairs(alice.tenant, { limit: 10 })).pairs.map(pairIds)).toEqual([[TEXT.ttl120, TEXT.ttl60]]);
  });

  it('lists stale and prune-eligible long-term memories of the tenant, lowest score first, judged now (R-DECAY-1)', async () => {
    const insert = async (who: CallContext, content: string, daysAgo: number, fields: Record<string, unknown>) => {
      clock.set(new Date(Date.parse(START) - daysAgo * DAY).toISOString());
      const memory = await store().memories.insertAsGiven(who.tenant, { tier: 'ltm', content, ...fields }, who.actor);
      clock.set(START);
      return memory;
    };
    const pruneable = await insert(alice, 'an unimportant note from two months ago', 60, { importance: 0, importanceScore: 0.05 });
    const readSince = await insert(alice, 'rated important, scored low by an old scan', 60, { importance: 0.9, importanceScore: 0.05 });
    const young = await insert(alice, 'an unimportant note from last week', 10, { importance: 0, importanceScore: 0.1 });
    const stale = await insert(alice, 'a plain note from forty days ago', 40, { importanceScore: 0.25 });
    await insert(alice, 'a fresh note', 0, { importanceScore: 0.55 });
    // A stored score under a pin (as if pinned since the last scan): judged now, the pin's floor lifts it.
    const pinned = await insert(alice, 'pinned, never stale', 60, { importance: 0, importanceScore: 0.05, pinned: true });
    await insert(bob, 'bob’s unimportant note', 60, { importance: 0, importanceScore: 0.01 });
    const deleted = await insert(alice, 'deleted already', 60, { importance: 0, importanceScore: 0.01 });
    await store().memories.softDelete(alice.tenant, deleted.id, alice.actor);
    clock.set(new Date(Date.parse(START) - DAY).toISOString());
    await store().memories.insertAsGiven(
      alice.tenant,
      { tier: 'stm', content: 'short-term', importanceScore: 0.01, expiresAt: new Date(Date.parse(START) + DAY) },
      alice.actor,
    );
    clock.set(START);

    // By the stored score, then id: the deleted, short-term and other tenant's rows never come.
    const raw = await review().lowImportance(alice.tenant, { maxScore: 0.3, limit: 10 });
    expect(raw.items.map((memory) => memory.id)).toEqual([pruneable.id, readSince.id, pinned.id, young.id, stale.id]);
    expect(raw.nextCursor).toBeUndefined();

    const listed = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await maintenance().fadingMemories(alice, { limit: 2, cursor });
      listed.push(...page.items);
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(listed.map((item) => [item.memory.id, item.stale, item.pruneEligible])).toEqual([
      [pruneable.id, true, true],
      [young.id, true, false],
      [stale.id, true, false],
    ]);
    expect(listed[0]?.score).toBeCloseTo(0.35 * 0.5 ** (60 / 14), 6);
    expect(await codeOf(review().lowImportance(alice.tenant, { maxScore: 0.3, limit: 10, cursor: '0.1_nope' }))).toBe('INVALID_INPUT');
  });

  it('approving a dry run merges exactly the clusters shown, as the person; a changed cluster and another tenant’s are left alone', async () => {
    const insert = (who: CallContext, content: string) => {
      clock.advance(1000);
      const embedding = { vector: VECTORS[content] ?? vector(15), model: 'static-test' };
      return store().memories.insertAsGiven(who.tenant, { tier: 'ltm', content, embedding }, who.actor);
    };
    for (const content of [TEXT.kayakGarage, TEXT.kayakShed, TEXT.standupNine, TEXT.standupNineAgain]) await insert(alice, content);
    await insert(bob, TEXT.kayakGarage);
    await insert(bob, TEXT.kayakShed);
    const dryRun = await maintenance().consolidateCorpus({ userId: 'alice', dryRun: true });
    expect(dryRun.clusters).toBe(2);
    const shown = await review().memoriesByIds(
      alice.tenant,
      dryRun.perCluster.flatMap((cluster) => [cluster.canonicalId, ...cluster.loserIds]),
    );
    const version = (id: string) => ({ id, version: shown.find((memory) => memory.id === id)?.version ?? 0 });
    const clusters = dryRun.perCluster.map((cluster) => ({
      canonical: version(cluster.canonicalId),
      losers: cluster.loserIds.map(version),
    }));

    // Bob approving Alice's clusters: his own pass has none of them.
    expect(await maintenance().approveConsolidation(bob, { clusters })).toEqual({ merged: 0, changed: 2 });

    // One member of the second cluster is edited after the dry run.
    const edited = clusters[1]?.losers[0];
    if (!edited) throw new Error('a loser');
    await memories.update(alice, edited.id, { tags: ['edited'] }, edited.version);
    expect(await maintenance().approveConsolidation(alice, { clusters })).toEqual({ merged: 1, changed: 1 });

    const merged = clusters[0];
    if (!merged) throw new Error('a cluster');
    const loser = merged.losers[0];
    if (!loser) throw new Error('a loser');
    expect((await store().memories.findById(alice.tenant, loser.id))?.supersededBy).toBe(merged.canonical.id);
    expect((await auditOf(loser.id)).at(-1)).toMatchObject({ action: 'merge', actor: 'user:alice' });
    expect((await store().memories.findById(alice.tenant, edited.id))?.supersededBy).toBeNull();
    const bobsLeft = await store().memories.list(bob.tenant, { limit: 10 });
    expect(bobsLeft.items.every((memory) => memory.supersededBy === null)).toBe(true);
    expect(await codeOf(maintenance().approveConsolidation(alice, { clusters: [] }))).toBe('INVALID_INPUT');
  });
});
