import {
  type CallContext,
  createMemoryEngine,
  DECAY_JOB,
  Maintenance,
  type MemoryEngine,
  type MemoryRecord,
  toTenantId,
} from '@memsvc/core';
import { ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { type MemsvcStore, vectorShardOf } from '../src/index.js';
import { describeEachEngine } from './support/each-engine.js';
import { TEST_LIFECYCLE_SETTINGS } from './support/maintenance-settings.js';
import { openTestStore } from './support/open-test-store.js';

const alice: CallContext = { tenant: toTenantId('alice'), actor: { id: 'user:alice' } };
const bob: CallContext = { tenant: toTenantId('bob'), actor: { id: 'user:bob' } };

const DIMENSIONS = 64;

/** A unit vector at `degrees` from the x axis in the first plane: cos(a − b) is the similarity of two of them. */
function at(degrees: number): number[] {
  const radians = (degrees * Math.PI) / 180;
  return [Math.cos(radians), Math.sin(radians), ...new Array<number>(DIMENSIONS - 2).fill(0)];
}

/** Any other text gets an axis of its own, so unrelated test memories never look alike. */
function ownAxis(): (text: string) => number[] {
  const axes = new Map<string, number>();
  return (text) => {
    if (!axes.has(text)) axes.set(text, 2 + (axes.size % (DIMENSIONS - 2)));
    const vector = new Array<number>(DIMENSIONS).fill(0);
    vector[axes.get(text) ?? 2] = 1;
    return vector;
  };
}
const similarityDegrees = (similarity: number) => (Math.acos(similarity) * 180) / Math.PI;

describeEachEngine('scheduled jobs: sweep, promotion, decay, corpus consolidation, auth sweep', (engine) => {
  let store: MemsvcStore;
  const clock = new ManualClock('2026-05-01T09:00:00.000Z');
  const vectors: Record<string, number[]> = {};
  const embedder = new StaticEmbedder(vectors, 'static-test', ownAxis());
  let memories: MemoryEngine;
  let promotedEvents: number[];
  let maintenance: Maintenance;

  beforeAll(async () => {
    store = await openTestStore({ database: await engine.freshDatabaseUrl(), clock, vector: { dimensions: DIMENSIONS } });
  });
  afterAll(async () => {
    await store?.close();
  });
  beforeEach(async () => {
    await sql`TRUNCATE memories, memory_audit, memory_links, scheduler_state, sessions, oauth_states, jwt_denylist, rate_limit_counters CASCADE`.execute(
      store.connection.db,
    );
    clock.set('2026-05-01T09:00:00.000Z');
    for (const key of Object.keys(vectors)) delete vectors[key];
    embedder.available = true;
    memories = createMemoryEngine({ store: store.memories, embedder, clock, grants: store.grants, erasures: store.erasures });
    promotedEvents = [];
    maintenance = new Maintenance({ ...maintenanceOptions(), events: { promoted: (count) => promotedEvents.push(count) } });
  });

  /** An engine whose writes never flag a contradiction, so near-duplicates stay for consolidation to merge. */
  const mergeableWriter = () =>
    createMemoryEngine({
      store: store.memories,
      embedder,
      clock,
      settings: { similarity: { ...maintenanceOptions().settings.similarity, contradictionThreshold: 0.95 }, importanceHalfLifeDays: 14 },
      grants: store.grants,
      erasures: store.erasures,
    });

  const read = async (context: CallContext, id: string, times: number) => {
    for (let i = 0; i < times; i++) await memories.get(context, id);
  };

  it('the expiry sweep deletes expired short-term rows only', async () => {
    const short = await memories.create(alice, { tier: 'stm', content: 'short-lived note', ttlSeconds: 60 });
    const longer = await memories.create(alice, { tier: 'stm', content: 'a longer note', ttlSeconds: 3600 });
    const fact = await memories.create(alice, { tier: 'ltm', content: 'a lasting fact' });
    clock.advance(120_000);
    expect(await maintenance.sweepExpiredShortTerm()).toBe(1);
    const ids = (await sql<{ id: string }>`SELECT id FROM memories ORDER BY id`.execute(store.connection.db)).rows.map((row) => row.id);
    expect(ids).toEqual([longer.memory.id, fact.memory.id].sort());
    expect(ids).not.toContain(short.memory.id);
    expect(await maintenance.sweepExpiredShortTerm()).toBe(0);
  });

  it('R-PROMOTE-1: promotes short-term memories read often enough, keeping their ids; a duplicate of a long-term memory collapses', async () => {
    vectors['Deploys happen on Tuesdays'] = at(0);
    vectors['deploys happen on tuesdays!'] = at(1); // similarity 0.9998: a duplicate
    vectors['Standup is at 9:30'] = at(60);
    vectors['Lunch is at noon'] = at(120);
    const lasting = await memories.create(alice, { tier: 'ltm', content: 'Deploys happen on Tuesdays' });
    // A short-term note is written with the same words as the lasting fact: it collapses at write time, so write it unrelated, then give it the duplicate's vector.
    const echo = await memories.create(alice, { tier: 'stm', content: 'deploys happen on tuesdays!' });
    const standup = await memories.create(alice, { tier: 'stm', content: 'Standup is at 9:30' });
    const lunch = await memories.create(bob, { tier: 'stm', content: 'Lunch is at noon' });
    expect(echo.outcome).toBe('duplicate'); // a short-term write already collapses into the long-term fact
    await read(alice, standup.memory.id, 3);
    await read(bob, lunch.memory.id, 2);

    const pass = await maintenance.promoteShortTerm({ scheduled: true });
    expect(pass).toMatchObject({ scanned: 1, promoted: 1, collapsed: 0, failed: 0, promotedIds: [standup.memory.id] });
    expect(promotedEvents).toEqual([1]);
    expect((await memories.getUncounted(alice, standup.memory.id)).tier).toBe('ltm');
    expect((await memories.getUncounted(bob, lunch.memory.id)).tier).toBe('stm');
    expect((await memories.getUncounted(alice, lasting.memory.id)).tier).toBe('ltm');

    // One more read qualifies bob's note; scoped to alice, the pass leaves it alone.
    await read(bob, lunch.memory.id, 1);
    expect((await maintenance.promoteShortTerm({ userId: 'alice' })).scanned).toBe(0);
    expect((await maintenance.promoteShortTerm()).promotedIds).toEqual([lunch.memory.id]);
    // An operator's pass (consolidate_memories) is not the scheduler's: the spec's counters leave it out.
    expect(promotedEvents).toEqual([1]);
    const audit = await memories.audit(bob, lunch.memory.id);
    expect(audit[0]).toMatchObject({ actor: 'system:stm-promotion' });
  });

  it('promotion collapses a short-term memory into a long-term duplicate written after it', async () => {
    vectors['The VPN needs MFA'] = at(10);
    vectors['VPN access requires MFA'] = at(10.5); // similarity 0.99996
    const note = await memories.create(alice, { tier: 'stm', content: 'The VPN needs MFA' });
    const fact = await memories.create(alice, { tier: 'ltm', content: 'VPN access requires MFA' });
    expect(fact.outcome).toBe('created'); // long-term writes compare with long-term rows only
    await read(alice, note.memory.id, 3);
    const pass = await maintenance.promoteShortTerm();
    expect(pass).toMatchObject({ scanned: 1, promoted: 0, collapsed: 1 });
    expect((await memories.list(alice, { limit: 10 })).items.map((memory) => memory.id)).toEqual([fact.memory.id]);
  });

  it('promotion embeds a short-term memory stored while the provider was down, so a long-term duplicate is found', async () => {
    vectors['Backups run at 02:00'] = at(20);
    vectors['backups run at 2am'] = at(20.5); // a duplicate by similarity, not by text
    embedder.available = false;
    const note = await memories.create(alice, { tier: 'stm', content: 'backups run at 2am' });
    embedder.available = true;
    expect(note.embedded).toBe(false);
    const fact = await memories.create(alice, { tier: 'ltm', content: 'Backups run at 02:00' });
    await read(alice, note.memory.id, 3);
    expect(await maintenance.promoteShortTerm()).toMatchObject({ scanned: 1, promoted: 0, collapsed: 1 });
    expect((await memories.list(alice, { limit: 10 })).items.map((memory) => memory.id)).toEqual([fact.memory.id]);
  });

  it('the importance threshold, when set, also has to be met', async () => {
    const strict = new Maintenance({
      ...maintenanceOptions(),
      settings: { ...maintenanceOptions().settings, promotion: { accessThreshold: 1, importanceThreshold: 0.8 } },
    });
    const plain = await memories.create(alice, { tier: 'stm', content: 'plain note' });
    const vital = await memories.create(alice, { tier: 'stm', content: 'vital note', importance: 1, pinned: true });
    await read(alice, plain.memory.id, 1);
    await read(alice, vital.memory.id, 1);
    expect((await strict.promoteShortTerm()).promotedIds).toEqual([vital.memory.id]);
  });

  it('R-DECAY-1: the decay scan marks stale, prunes old unpinned low-importance memories (audited, restorable), and resumes from its saved cursor', async () => {
    const low = await memories.create(alice, { tier: 'ltm', content: 'rarely useful trivia', importance: 0 });
    const lowPinned = await memories.create(alice, { tier: 'ltm', content: 'pinned trivia', importance: 0, pinned: true });
    const normal = await memories.create(alice, { tier: 'ltm', content: 'an ordinary fact' });
    const fresh = await memories.create(bob, { tier: 'ltm', content: 'a fresh fact', importance: 1 });
    clock.advance(60 * 86_400_000); // 60 days: recency 0.05

    // batch size 2: one batch, then the cursor is in the database.
    const first = await maintenance.decayScan({ maxBatches: 1 });
    expect(first).toMatchObject({ scanned: 2, completed: false });
    expect(await store.lifecycle.jobCursor(DECAY_JOB)).toBe(lowPinned.memory.id);
    const rest = await maintenance.decayScan();
    expect(rest).toMatchObject({ scanned: 2, completed: true });
    expect(await store.lifecycle.jobCursor(DECAY_JOB)).toBeUndefined();
    expect(first.pruned + rest.pruned).toBe(1);

    // low: 0.4·0 + 0.35·0.05 = 0.0175 → pruned; pinned: never pruned, kept at 0.9; normal: 0.2175 → stale.
    await expect(memories.getUncounted(alice, low.memory.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await memories.getUncounted(alice, lowPinned.memory.id)).toMatchObject({ stale: false, importanceScore: 0.9 });
    const ordinary = await memories.getUncounted(alice, normal.memory.id);
    expect(ordinary.stale).toBe(true);
    expect(ordinary.version).toBe(1); // bookkeeping does not bump the client's version
    expect((await memories.getUncounted(bob, fresh.memory.id)).stale).toBe(false);

    const [pruneEntry] = await memories.audit(alice, low.memory.id);
    expect(pruneEntry).toMatchObject({ action: 'prune', actor: 'system:ltm-decay' });
    const restored = await memories.restore(alice, low.memory.id);
    expect(restored.deletedAt).toBeNull();
  });

  it('R-MERGE-1, R-MERGE-2, R-MERGE-3: corpus consolidation reports in a dry run, then merges a cluster into its canonical memory, restorably', async () => {
    vectors['Service A runs on port 8080'] = at(0);
    vectors['service a listens on 8080'] = at(similarityDegrees(0.9));
    vectors['Service A: HTTP port 8080'] = at(-similarityDegrees(0.9)); // 0.9 to the first, 0.62 to the second
    vectors['An unrelated fact'] = at(90);
    const writer = mergeableWriter();
    const first = await writer.create(alice, { tier: 'ltm', content: 'Service A runs on port 8080', tags: ['infra'] });
    clock.advance(1000);
    const second = await writer.create(alice, { tier: 'ltm', content: 'service a listens on 8080', tags: ['ports'], importance: 0.9 });
    clock.advance(1000);
    const third = await writer.create(alice, { tier: 'ltm', content: 'Service A: HTTP port 8080' });
    await writer.create(alice, { tier: 'ltm', content: 'An unrelated fact' });
    // The same wording in another tenant never joins alice's cluster.
    await writer.create(bob, { tier: 'ltm', content: 'service a listens on 8080' });

    const dry = await maintenance.consolidateCorpus({});
    expect(dry).toMatchObject({ dryRun: true, clusters: 1, merged: 0, cursor: null });
    expect(dry.perCluster[0]).toMatchObject({ canonicalId: second.memory.id, unionedTags: ['ports', 'infra'] });
    expect([...(dry.perCluster[0]?.loserIds ?? [])].sort()).toEqual([first.memory.id, third.memory.id].sort());
    expect((await memories.list(alice, { limit: 10 })).items).toHaveLength(4);

    const applied = await maintenance.consolidateCorpus({ dryRun: false });
    expect(applied).toMatchObject({ merged: 1, skippedConcurrentEdit: 0 });
    const visible = (await memories.list(alice, { limit: 10 })).items.map((memory: MemoryRecord) => memory.id);
    expect(visible).not.toContain(first.memory.id);
    expect(visible).not.toContain(third.memory.id);
    expect((await memories.getUncounted(alice, second.memory.id)).tags).toEqual(['ports', 'infra']);
    const loser = await memories.getUncounted(alice, first.memory.id);
    expect(loser).toMatchObject({ supersededBy: second.memory.id, version: 2 });
    const links = await sql<{ rel_type: string; target_memory_id: string }>`
      SELECT rel_type, target_memory_id FROM memory_links WHERE source_memory_id = ${first.memory.id}`.execute(store.connection.db);
    expect(links.rows).toEqual([{ rel_type: 'duplicate-of', target_memory_id: second.memory.id }]);
    expect((await memories.audit(alice, first.memory.id))[0]).toMatchObject({ action: 'merge', actor: 'system:corpus-consolidation' });

    // Nothing left to merge; and restoring the loser's version 1 un-merges it.
    expect((await maintenance.consolidateCorpus({ dryRun: false })).clusters).toBe(0);
    const restored = await memories.restore(alice, first.memory.id, 1);
    expect(restored.supersededBy).toBeNull();
    expect((await memories.list(alice, { limit: 10 })).items.map((memory: MemoryRecord) => memory.id)).toContain(first.memory.id);
  });

  it('an unscoped pass finds the clusters of tenants whose vectors are in different HNSW shards', async () => {
    const carol: CallContext = { tenant: toTenantId('carol'), actor: { id: 'user:carol' } };
    expect(new Set([vectorShardOf('bob'), vectorShardOf('carol')]).size).toBe(2);
    vectors['Deploys go out on Tuesdays'] = at(0);
    vectors['deploys happen every Tuesday'] = at(similarityDegrees(0.9));
    const writer = mergeableWriter();
    for (const who of [bob, carol]) {
      await writer.create(who, { tier: 'ltm', content: 'Deploys go out on Tuesdays' });
      await writer.create(who, { tier: 'ltm', content: 'deploys happen every Tuesday' });
    }
    const dry = await maintenance.consolidateCorpus({});
    expect(dry).toMatchObject({ dryRun: true, clusters: 2 });
    const owners = await Promise.all(
      dry.perCluster.map(
        async (cluster) =>
          (
            await store.connection.db
              .selectFrom('memories')
              .select('user_id')
              .where('id', '=', cluster.canonicalId)
              .executeTakeFirstOrThrow()
          ).user_id,
      ),
    );
    expect(owners.sort()).toEqual(['bob', 'carol']);
  });

  it('contradicted memories never merge, and a pair at the duplicate threshold is not in the merge band', async () => {
    vectors['The cache TTL is 60 seconds'] = at(0);
    vectors['The cache TTL is 90 seconds'] = at(similarityDegrees(0.9)); // contradiction band: flagged on write
    vectors['Cache TTL: 60 s'] = at(-similarityDegrees(0.975)); // ≥ 0.97 to the first: not in [0.85, 0.97)
    await memories.create(alice, { tier: 'ltm', content: 'The cache TTL is 60 seconds' });
    const contradicting = await memories.create(alice, { tier: 'ltm', content: 'The cache TTL is 90 seconds' });
    expect(contradicting.contradictions).toHaveLength(1);
    const result = await maintenance.consolidateCorpus({ dryRun: false });
    expect(result).toMatchObject({ clusters: 0, merged: 0 });
  });

  it('a cluster whose member changed since the scan is left alone', async () => {
    vectors['Build with pnpm'] = at(0);
    vectors['Builds use pnpm'] = at(similarityDegrees(0.9));
    const writer = mergeableWriter();
    const a = await writer.create(alice, { tier: 'ltm', content: 'Build with pnpm' });
    const b = await writer.create(alice, { tier: 'ltm', content: 'Builds use pnpm' });
    const found = await store.lifecycle.similarPairs({
      tenant: undefined,
      scope: undefined,
      minSimilarity: 0.85,
      maxSimilarity: 0.97,
      after: undefined,
      seedLimit: 10,
    });
    await memories.update(alice, b.memory.id, { tags: ['edited'] }, 1);
    const pair = found.pairs[0];
    if (!pair) throw new Error('expected a pair');
    const outcome = await store.lifecycle.mergeCluster(pair.a, [{ memory: pair.b, similarity: pair.similarity }], [], { id: 'test' });
    expect(outcome).toBe('changed-meanwhile');
    expect((await memories.getUncounted(alice, a.memory.id)).supersededBy).toBeNull();
  });

  it('the auth-store sweep deletes expired sessions, OAuth states, denied JWT ids and lapsed rate-limit counters', async () => {
    const db = store.connection.db;
    const past = new Date('2026-05-01T08:00:00Z');
    const future = new Date('2026-05-01T10:00:00Z');
    await db
      .insertInto('sessions')
      .values([
        { id: '00000000-0000-7000-8000-000000000001', user_id: 'alice', jti: 'a', expires_at: past },
        { id: '00000000-0000-7000-8000-000000000002', user_id: 'alice', jti: 'b', expires_at: future },
      ])
      .execute();
    await db.insertInto('oauth_states').values({ state_hash: 'h', provider: 'github', expires_at: past }).execute();
    await db
      .insertInto('jwt_denylist')
      .values([
        { jti: 'x', expires_at: past },
        { jti: 'y', expires_at: future },
      ])
      .execute();
    await db.insertInto('rate_limit_counters').values({ bucket: 'user:alice', window_start: past, count: 3, expires_at: past }).execute();
    expect(await maintenance.sweepAuthStore()).toEqual({ sessions: 1, oauthStates: 1, deniedJtis: 1, rateLimitCounters: 1 });
    expect(await maintenance.sweepAuthStore()).toEqual({ sessions: 0, oauthStates: 0, deniedJtis: 0, rateLimitCounters: 0 });
  });

  function maintenanceOptions() {
    return {
      lifecycle: store.lifecycle,
      memories: store.memories,
      reindexStore: store.reindex,
      jobs: store.reindexJobs,
      review: store.review,
      embedder,
      clock,
      settings: TEST_LIFECYCLE_SETTINGS,
    };
  }
});
