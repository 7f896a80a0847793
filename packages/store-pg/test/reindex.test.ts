import {
  CheckpointOutOfOrder,
  checkReindexRequest,
  DEFAULT_ENGINE_SETTINGS,
  EMPTY_REINDEX_SUMMARY,
  type Embedder,
  JobOwnershipLost,
  Maintenance,
  type ReindexControl,
  type ReindexJob,
  type ReindexRequest,
  type ReindexStore,
  toTenantId,
  writeRules,
} from '@memsvc/core';
import { ManualClock, writeMemory } from '@memsvc/core/testing';
import { LocalEmbedder } from '@memsvc/embeddings';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HNSW_SHARD_INDEX_NAMES, hnswShardIndexName, type MemsvcStore, PgReindexStore, vectorShardOf } from '../src/index.js';
import { codeOf } from './support/code-of.js';
import { describeEachEngine } from './support/each-engine.js';
import { TEST_LIFECYCLE_SETTINGS } from './support/maintenance-settings.js';
import { openTestStore } from './support/open-test-store.js';

const alice = toTenantId('alice');
const bob = toTenantId('bob');
const actor = { id: 'test' };

/** A provider that fails every second request (a flaky third-party service), batching two texts per request. */
class FlakyEmbedder implements Embedder {
  readonly model = 'memsvc-local-v1';
  readonly maxBatch = 2;
  requests = 0;
  readonly #local = new LocalEmbedder();

  async embed(texts: readonly string[]) {
    this.requests++;
    return this.requests % 2 === 0 ? undefined : this.#local.embed(texts);
  }
}

describeEachEngine('reindex runs and the reindex job queue', (engine) => {
  let store: MemsvcStore;
  let databaseUrl: string;
  const clock = new ManualClock('2026-05-01T09:00:00.000Z');
  const local = new LocalEmbedder();

  beforeAll(async () => {
    databaseUrl = await engine.freshDatabaseUrl();
    store = await openTestStore({ database: databaseUrl, clock, vector: { model: 'memsvc-local-v1' } });
  });
  afterAll(async () => {
    await store?.close();
  });
  beforeEach(async () => {
    await sql`TRUNCATE memories, memory_audit, memory_links, reindex_jobs CASCADE`.execute(store.connection.db);
  });

  /** Memories stored without vectors (written while the provider was down). */
  async function seed(count: number, tenant = alice): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++)
      ids.push((await store.memories.insertAsGiven(tenant, { tier: 'ltm', content: `fact number ${i} about ${tenant}` }, actor)).id);
    return ids;
  }
  const unembedded = async () =>
    Number((await sql<{ n: string }>`SELECT count(*) AS n FROM memories WHERE embedding IS NULL`.execute(store.connection.db)).rows[0]?.n);
  /** A synchronous run over the given reindex store and embedder, driven as a job is (Maintenance.runReindexJob). */
  const runReindex = (reindexStore: ReindexStore, embedder: Embedder, request: ReindexRequest, control: ReindexControl = {}) =>
    new Maintenance({
      lifecycle: store.lifecycle,
      memories: store.memories,
      reindexStore,
      jobs: store.reindexJobs,
      review: store.review,
      embedder,
      clock,
      settings: TEST_LIFECYCLE_SETTINGS,
    }).runReindexJob(checkReindexRequest(request), control);
  const reindex = (request: ReindexRequest, embedder: Embedder = local) => runReindex(store.reindex, embedder, request);

  it('backfills memories without vectors, then skips them on a reuse run', async () => {
    await seed(7);
    expect(await reindex({ batchSize: 3 })).toEqual({ processed: 7, indexed: 7, skipped: 0, failed: 0, cursor: null, stoppedBy: 'end' });
    expect(await unembedded()).toBe(0);
    expect(await reindex({ batchSize: 3 })).toMatchObject({ processed: 7, indexed: 0, skipped: 7 });
    // The stored vector is the one a write computes from the same text.
    const [row] = (await store.memories.nearest(alice, local.vectorOf('fact number 3 about alice'), 1)).values();
    expect(row?.similarity).toBeCloseTo(1, 5);
  });

  it('maxMemories stops with a cursor, and the next run continues after it: every memory exactly once', async () => {
    const ids = await seed(9);
    const first = await reindex({ batchSize: 2, maxMemories: 5 });
    expect(first).toMatchObject({ processed: 5, indexed: 5, cursor: ids[4], stoppedBy: 'max-memories' });
    const second = await reindex({ batchSize: 2, cursor: first.cursor ?? undefined });
    expect(second).toMatchObject({ processed: 4, indexed: 4, cursor: null, stoppedBy: 'end' });
    expect(await unembedded()).toBe(0);
  });

  it('a regenerate run over unchanged content rewrites nothing', async () => {
    await seed(4);
    await reindex({});
    const before = await sql<{ id: string; embedded_at: Date }>`SELECT id, embedded_at FROM memories ORDER BY id`.execute(
      store.connection.db,
    );
    clock.advance(60_000);
    expect(await reindex({ reuseExistingEmbeddings: false })).toMatchObject({ processed: 4, indexed: 4, skipped: 0 });
    const after = await sql<{ id: string; embedded_at: Date }>`SELECT id, embedded_at FROM memories ORDER BY id`.execute(
      store.connection.db,
    );
    expect(after.rows).toEqual(before.rows);
  });

  it('scoped to one tenant, touches only that tenant', async () => {
    await seed(3, alice);
    await seed(2, bob);
    expect(await reindex({ userId: 'bob' })).toMatchObject({ processed: 2, indexed: 2 });
    expect(await unembedded()).toBe(3);
  });

  it('a provider failing part of the run: those memories are counted failed, keep no vector, and the next run picks them up', async () => {
    await seed(8);
    const flaky = new FlakyEmbedder();
    const result = await reindex({ batchSize: 4 }, flaky);
    // Requests of two texts; every second one fails: half the memories.
    expect(result).toMatchObject({ processed: 8, indexed: 4, failed: 4, cursor: null });
    expect(await unembedded()).toBe(4);
    expect(await reindex({})).toMatchObject({ processed: 8, indexed: 4, skipped: 4, failed: 0 });
    expect(await unembedded()).toBe(0);
  });

  it('recreate + regenerate after a dimension change: old vectors dropped, new ones written, index rebuilt, search works', async () => {
    await seed(5);
    await reindex({});
    const smaller = new LocalEmbedder(96);
    Object.defineProperty(smaller, 'model', { value: 'local-96' });
    // Without recreate the new size is refused and nothing is written.
    expect(await codeOf(reindex({ reuseExistingEmbeddings: false }, smaller))).toBe('DIMENSION_MISMATCH');
    const result = await reindex({ recreate: true, reuseExistingEmbeddings: false }, smaller);
    expect(result).toMatchObject({ processed: 5, indexed: 5, failed: 0 });
    expect(await store.vectorSpace.describe()).toMatchObject({ dimensions: 96, model: 'local-96' });
    const indexes = await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes WHERE tablename = 'memories'`.execute(
      store.connection.db,
    );
    expect(indexes.rows.map((row) => row.indexname)).toEqual(expect.arrayContaining([...HNSW_SHARD_INDEX_NAMES]));
    const [best] = await store.memories.nearest(alice, smaller.vectorOf('fact number 2 about alice'), 1);
    expect(best?.memory.content).toBe('fact number 2 about alice');
    // Back to the original model for the other tests.
    await reindex({ recreate: true, reuseExistingEmbeddings: false });
  });

  it('R-REINDEX-1, R-REINDEX-2: bad options are typed errors naming the field, checked before anything runs', () => {
    const fieldOf = (request: Parameters<typeof checkReindexRequest>[0]) => {
      try {
        checkReindexRequest(request);
        return 'accepted';
      } catch (error) {
        return (error as { data: { field: string } }).data.field;
      }
    };
    expect(fieldOf({ batchSize: 0 })).toBe('batchSize');
    expect(fieldOf({ batchSize: 1001 })).toBe('batchSize');
    expect(fieldOf({ batchSize: 1000 })).toBe('accepted');
    expect(fieldOf({ cursor: 'not-a-memory-id' })).toBe('cursor');
    expect(fieldOf({ maxMemories: 0 })).toBe('maxMemories');
    expect(fieldOf({ recreate: true, userId: 'alice' })).toBe('recreate');
    expect(fieldOf({ recreate: true, maxMemories: 10 })).toBe('recreate');
    expect(fieldOf({ recreate: true })).toBe('accepted');
  });

  it('R-JOB-1: the queue runs one job at a time, cancels, retries and refuses impossible transitions', async () => {
    const jobs = store.reindexJobs;
    const maintenance = new Maintenance({
      lifecycle: store.lifecycle,
      memories: store.memories,
      reindexStore: store.reindex,
      jobs,
      review: store.review,
      embedder: local,
      clock,
      settings: TEST_LIFECYCLE_SETTINGS,
    });
    const first = await maintenance.queueReindex({ batchSize: 10 }, 'admin');
    const second = await maintenance.queueReindex({ userId: 'bob' }, 'admin');
    expect(first.state).toBe('queued');
    const claimed = await jobs.claimNext('runner-a');
    expect(claimed).toMatchObject({ jobId: first.jobId, state: 'running', attempts: 1 });
    expect(await jobs.claimNext('runner-b')).toBeUndefined(); // one running at a time
    expect(await codeOf(maintenance.retryReindex(first.jobId))).toBe('CONFLICT');

    // A queued job is cancelled at once; a running one is asked to stop.
    expect((await maintenance.cancelReindex(second.jobId)).state).toBe('cancelled');
    expect(await maintenance.cancelReindex(first.jobId)).toMatchObject({ state: 'running', cancelRequested: true });
    expect(await codeOf(maintenance.cancelReindex(second.jobId))).toBe('CONFLICT');

    // The runner sees the request when it saves a batch.
    const saved = await store.reindex.saveBatch([], {
      jobId: first.jobId,
      runnerId: 'runner-a',
      progress: { ...EMPTY_REINDEX_SUMMARY, processed: 3 },
      previousCursor: null,
    });
    expect(saved.cancelRequested).toBe(true);
    // Another runner may not save progress of a job it does not own.
    await expect(
      store.reindex.saveBatch([], { jobId: first.jobId, runnerId: 'runner-b', progress: EMPTY_REINDEX_SUMMARY, previousCursor: null }),
    ).rejects.toBeInstanceOf(JobOwnershipLost);
    await jobs.finish(first.jobId, 'runner-a', { state: 'cancelled' });
    expect(await codeOf(maintenance.cancelReindex(first.jobId))).toBe('CONFLICT');

    // Retry keeps the counts and cursor, and queues the same job again.
    const retried = await maintenance.retryReindex(first.jobId);
    expect(retried).toMatchObject({ jobId: first.jobId, state: 'queued', cancelRequested: false });
    expect(retried.progress.processed).toBe(3);
    expect(await codeOf(maintenance.reindexStatus('00000000-0000-7000-8000-000000000000'))).toBe('NOT_FOUND');
    expect(await codeOf(maintenance.reindexStatus('nope'))).toBe('INVALID_INPUT');
  });

  it('a job whose runner went silent is declared failed; the runner then can no longer write', async () => {
    const ids = await seed(6);
    const job: ReindexJob = await store.reindexJobs.enqueue(checkReindexRequest({ batchSize: 2 }), 'admin');
    await store.reindexJobs.claimNext('runner-a');
    // A checkpoint that does not follow the saved cursor is refused, and its vectors with it.
    const vectorOf = (index: number) => ({
      id: ids[index] ?? '',
      vector: local.vectorOf(`fact number ${index} about alice`),
      model: local.model,
    });
    await expect(
      store.reindex.saveBatch([vectorOf(2), vectorOf(3)], {
        jobId: job.jobId,
        runnerId: 'runner-a',
        progress: { ...EMPTY_REINDEX_SUMMARY, processed: 4, cursor: ids[3] ?? null },
        previousCursor: ids[1] ?? null,
      }),
    ).rejects.toBeInstanceOf(CheckpointOutOfOrder);
    expect(await unembedded()).toBe(6);
    // One batch done by runner-a.
    await store.reindex.saveBatch([], {
      jobId: job.jobId,
      runnerId: 'runner-a',
      progress: { ...EMPTY_REINDEX_SUMMARY, processed: 2, cursor: ids[1] ?? null },
      previousCursor: null,
    });
    expect(await store.reindexJobs.failAbandoned(60_000)).toEqual([]); // it just beat
    await sql`UPDATE reindex_jobs SET heartbeat_at = now() - interval '2 minutes'`.execute(store.connection.db);
    const abandoned = await store.reindexJobs.failAbandoned(60_000);
    expect(abandoned.map((entry) => entry.state)).toEqual(['failed']);
    expect(abandoned[0]?.error).toMatch(/retry continues from the saved cursor/);
    await expect(
      store.reindex.saveBatch([{ id: ids[2] ?? '', vector: local.vectorOf('x'), model: local.model }], {
        jobId: job.jobId,
        runnerId: 'runner-a',
        progress: EMPTY_REINDEX_SUMMARY,
        previousCursor: ids[1] ?? null,
      }),
    ).rejects.toBeInstanceOf(JobOwnershipLost);
    expect(await unembedded()).toBe(6); // the lost runner's batch wrote nothing
  });
  it('rebuilds the shard indexes after a drop; on PostgreSQL concurrently, so writes go on during the build', async () => {
    const db = store.connection.db;
    // Random vectors in one tenant: on PostgreSQL a build of a few seconds.
    const rows = engine.supportsSecondConnection ? 2500 : 300;
    await sql`INSERT INTO memories (id, user_id, tier, content, content_hash, embedding)
      SELECT gen_random_uuid(), 'alice', 'ltm', 'bulk ' || g, md5('bulk ' || g), v.embedding::vector
      FROM generate_series(1, ${rows}::int) AS g,
           LATERAL (SELECT '[' || string_agg((random() + d * 0 + g * 0)::text, ',') || ']' AS embedding
                    FROM generate_series(1, 384) AS d) AS v`.execute(db);
    await store.reindex.dropVectorIndex(undefined);
    const vector = local.vectorOf('written during the rebuild');

    const building = store.reindex.ensureVectorIndex();
    if (engine.supportsSecondConnection) {
      let finished = false;
      void building.then(() => {
        finished = true;
      });
      const probe = new pg.Client({ connectionString: databaseUrl });
      await probe.connect();
      try {
        for (;;) {
          const progress = await probe.query(
            `SELECT count(*)::int AS n FROM pg_stat_progress_create_index WHERE relid = 'memories'::regclass`,
          );
          if (progress.rows[0].n > 0 || finished) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(finished).toBe(false);
        // A plain CREATE INDEX holds a lock that makes this insert wait for the whole build.
        await probe.query(`SET lock_timeout = '1s'`);
        await probe.query(
          `INSERT INTO memories (id, user_id, tier, content, content_hash, embedding)
           VALUES (gen_random_uuid(), 'alice', 'ltm', 'written during the rebuild', md5('x'), $1)`,
          [`[${vector.join(',')}]`],
        );
      } finally {
        await probe.end();
      }
    } else {
      // PGlite is one connection: the write queues behind the build, and must not be lost.
      await store.memories.insertAsGiven(
        alice,
        { tier: 'ltm', content: 'written during the rebuild', embedding: { vector, model: local.model } },
        actor,
      );
    }
    await building;

    const indexes = await sql<{ name: string; valid: boolean }>`
      SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relname LIKE 'memories_embedding_hnsw_s%' ORDER BY 1`.execute(db);
    expect(indexes.rows).toEqual(HNSW_SHARD_INDEX_NAMES.map((name) => ({ name, valid: true })));
    const [best] = await store.memories.nearest(alice, vector, 1);
    expect(best?.memory.content).toBe('written during the rebuild');
  });

  describe('a backfill builds the index of the shards it fills once, at the end', () => {
    /** The store with a small threshold, so a handful of memories counts as a bulk load. */
    const backfillStore = () => new PgReindexStore(store.connection.db, store.vectorSpace, clock, engine.name, { backfillShardMinimum: 5 });
    const aliceShard = hnswShardIndexName(vectorShardOf(alice));
    const shardIndexes = async () =>
      (
        await sql<{ name: string; valid: boolean }>`
          SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE c.relname LIKE 'memories_embedding_hnsw_s%' ORDER BY 1`.execute(store.connection.db)
      ).rows;

    it('a shard mostly without vectors loses its index for the run and has it rebuilt, valid, at the end', async () => {
      const ids = await seed(9);
      const duringRun: Promise<{ name: string; valid: boolean }[]>[] = [];
      const result = await runReindex(
        backfillStore(),
        local,
        { batchSize: 4 },
        {
          onBatch: () => {
            duringRun.push(shardIndexes());
          },
        },
      );
      expect(result).toMatchObject({ processed: 9, indexed: 9, failed: 0, stoppedBy: 'end' });
      // After the first batch was saved, alice's shard had no index; the others kept theirs.
      const [afterFirstBatch] = await Promise.all(duringRun);
      expect(afterFirstBatch?.map((index) => index.name)).toEqual(HNSW_SHARD_INDEX_NAMES.filter((name) => name !== aliceShard));
      expect(await unembedded()).toBe(0);
      expect(await shardIndexes()).toEqual(HNSW_SHARD_INDEX_NAMES.map((name) => ({ name, valid: true })));
      // Every vector is in the rebuilt graph: each memory is its own nearest neighbour.
      for (const [i, id] of ids.entries()) {
        const [best] = await store.memories.nearest(alice, local.vectorOf(`fact number ${i} about alice`), 1);
        expect(best?.memory.id).toBe(id);
      }
    });

    it("while a shard's index is off, searches and the write rules still see its vectors (an exact scan)", async () => {
      const ids = await seed(6);
      const reindexStore = backfillStore();
      expect(await reindexStore.prepareBackfill({ tenant: undefined })).toBe(true);
      expect((await shardIndexes()).map((index) => index.name)).not.toContain(aliceShard);
      // The backfill has written one vector so far.
      const vector = local.vectorOf('fact number 2 about alice');
      expect(await store.memories.setEmbedding(alice, ids[2] ?? '', { vector, model: local.model })).toBe(true);
      const [best] = await store.memories.nearest(alice, vector, 1);
      expect(best?.memory.id).toBe(ids[2]);
      // A write with the same vector and other words is a duplicate of it.
      const outcome = await writeMemory(
        store.memories,
        alice,
        { tier: 'ltm', content: 'the second fact, said again', embedding: { vector, model: local.model } },
        actor,
        writeRules(DEFAULT_ENGINE_SETTINGS.similarity),
      );
      expect(outcome.decision).toMatchObject({ kind: 'collapse', exact: false });
      expect(outcome.memory.id).toBe(ids[2]);
      await reindexStore.ensureVectorIndex();
      expect(await shardIndexes()).toEqual(HNSW_SHARD_INDEX_NAMES.map((name) => ({ name, valid: true })));
    });

    it('keeps the index of a shard mostly indexed, and of a backfill too small to pay for a rebuild', async () => {
      await seed(6);
      await reindex({}); // six vectors in alice's shard
      await seed(5);
      expect(await backfillStore().prepareBackfill({ tenant: undefined })).toBe(false); // 5 missing < 6 indexed
      await sql`TRUNCATE memories CASCADE`.execute(store.connection.db);
      await seed(4);
      expect(await backfillStore().prepareBackfill({ tenant: undefined })).toBe(false); // under the minimum
      // The default store's minimum (BACKFILL_SHARD_MIN) is far above a handful of memories.
      expect(await store.reindex.prepareBackfill({ tenant: undefined })).toBe(false);
      expect(await shardIndexes()).toEqual(HNSW_SHARD_INDEX_NAMES.map((name) => ({ name, valid: true })));
    });

    it("a tenant's backfill counts that tenant's memories only", async () => {
      await seed(6, bob);
      await seed(2, alice);
      // Six of bob's memories lack a vector, but the run is alice's: two, under the minimum.
      expect(await backfillStore().prepareBackfill({ tenant: alice })).toBe(false);
      expect(await backfillStore().prepareBackfill({ tenant: bob })).toBe(true);
      await store.reindex.ensureVectorIndex();
    });

    it('a run that fails part-way still rebuilds what it took off', async () => {
      await seed(8);
      const reindexStore = backfillStore();
      const failing = Object.create(reindexStore) as PgReindexStore;
      let saves = 0;
      failing.saveBatch = (writes, checkpoint) => {
        saves++;
        return saves === 2 ? Promise.reject(new Error('connection lost')) : reindexStore.saveBatch(writes, checkpoint);
      };
      await expect(runReindex(failing, local, { batchSize: 4 }, { pipelineDepth: 1 })).rejects.toThrow('connection lost');
      expect(await shardIndexes()).toEqual(HNSW_SHARD_INDEX_NAMES.map((name) => ({ name, valid: true })));
      expect(await unembedded()).toBe(4);
    });
  });
});
