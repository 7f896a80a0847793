import { isMemsvcError, LEXICAL_RANKING } from '@memsvc/core';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { HNSW_SHARD_INDEX_NAMES, type MemsvcStore, type OpenStoreOptions, VECTOR_SHARDS, vectorShardOf } from '../src/index.js';
import { describeEachEngine } from './support/each-engine.js';
import { openTestStore } from './support/open-test-store.js';

describeEachEngine('vector space', (engine) => {
  const stores: MemsvcStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  async function open(options: Partial<OpenStoreOptions> = {}, url?: string) {
    const store = await openTestStore({ database: url ?? (await engine.freshDatabaseUrl()), ...options });
    stores.push(store);
    return store;
  }
  async function columnType(store: MemsvcStore) {
    const result = await sql<{ type: string }>`
      SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
      WHERE attrelid = 'memories'::regclass AND attname = 'embedding'`.execute(store.connection.db);
    return result.rows[0]?.type;
  }
  /** The shard indexes' definitions; undefined while there are none. */
  async function hnswIndex(store: MemsvcStore) {
    const result = await sql<{ indexname: string; indexdef: string }>`
      SELECT indexname, indexdef FROM pg_indexes WHERE indexname = ANY(${HNSW_SHARD_INDEX_NAMES as string[]}) ORDER BY indexname`.execute(
      store.connection.db,
    );
    if (result.rows.length === 0) return undefined;
    expect(result.rows.map((row) => row.indexname)).toEqual(HNSW_SHARD_INDEX_NAMES);
    result.rows.forEach((row, shard) => {
      expect(row.indexdef).toMatch(new RegExp(`WHERE \\(vector_shard = ${shard}\\)$`));
    });
    expect(new Set(result.rows.map((row) => row.indexdef.replace(/_s\d+ |vector_shard = \d+/g, ''))).size).toBe(1);
    return result.rows[0]?.indexdef;
  }

  it('leaves the dimensionality open until it is known, then fixes it from the first vector', async () => {
    const store = await open({ vector: { model: 'some-unknown-model' } });
    expect(await store.vectorSpace.describe()).toBeUndefined();
    expect(await columnType(store)).toBe('vector');
    expect(await hnswIndex(store)).toBeUndefined();

    await store.memories.insertAsGiven(
      't' as never,
      { tier: 'ltm', content: 'a', embedding: { vector: [1, 0, 0], model: 'm' } },
      { id: 'test' },
    );
    expect(await store.vectorSpace.describe()).toMatchObject({ dimensions: 3, model: 'm' });
    expect(await columnType(store)).toBe('vector(3)');
    expect(await hnswIndex(store)).toMatch(/USING hnsw \(embedding vector_cosine_ops\)/);
  });

  it('takes the dimensionality from VECTOR_DIMENSIONS before the model, and builds the index with the HNSW settings', async () => {
    const store = await open({ vector: { dimensions: 8, model: 'nomic-embed-text', hnswM: 12, hnswEfConstruction: 48 } });
    expect(await store.vectorSpace.describe()).toEqual({ dimensions: 8, model: 'nomic-embed-text', hnswM: 12, hnswEfConstruction: 48 });
    expect(await columnType(store)).toBe('vector(8)');
    expect(await hnswIndex(store)).toMatch(/WITH \(m='?12'?, ef_construction='?48'?\)/);
  });

  it("takes a known model's documented size when no pin is set", async () => {
    const store = await open({ vector: { model: 'nomic-embed-text' } });
    expect((await store.vectorSpace.describe())?.dimensions).toBe(768);
  });

  it('refuses a vector of another size with DIMENSION_MISMATCH and stores nothing', async () => {
    const store = await open({ vector: { dimensions: 3 } });
    const error = await store.memories
      .insertAsGiven('t' as never, { tier: 'ltm', content: 'wrong size', embedding: { vector: [1, 2], model: 'm' } }, { id: 'test' })
      .catch((caught: unknown) => caught);
    expect(isMemsvcError(error, 'DIMENSION_MISMATCH')).toBe(true);
    expect((error as Error).message).toMatch(
      /made with 3 dimensions, but this process embeds with m, 2 dimensions.*VECTOR_DIMENSIONS=3.*--recreate --regenerate/,
    );
    expect(await store.connection.db.selectFrom('memories').select(sql<number>`count(*)::int`.as('n')).executeTakeFirst()).toEqual({
      n: 0,
    });
  });

  it('refuses, at boot, a pin that disagrees with the stored vectors', async () => {
    const url = await engine.freshDatabaseUrl({ reopenable: true });
    const first = await open({ vector: { dimensions: 4 } }, url);
    await first.close();
    stores.splice(stores.indexOf(first), 1);
    const error = await openTestStore({ database: url, vector: { dimensions: 5 } }).catch((caught: unknown) => caught);
    expect(isMemsvcError(error, 'DIMENSION_MISMATCH')).toBe(true);
  });

  it('refuses sizes the HNSW index cannot hold', async () => {
    const store = await open();
    const error = await store.vectorSpace.ensure(2001, 'huge').catch((caught: unknown) => caught);
    expect(isMemsvcError(error, 'DIMENSION_MISMATCH')).toBe(true);
    expect(await store.vectorSpace.describe()).toBeUndefined();
  });

  it('lets concurrent first writers agree on one size: one wins, the other is refused', async () => {
    const url = await engine.freshDatabaseUrl();
    const a = await open({}, url);
    const b = engine.supportsSecondConnection ? await open({}, url) : a;
    const outcomes = await Promise.allSettled([a.vectorSpace.ensure(3, 'x'), b.vectorSpace.ensure(5, 'y')]);
    const fulfilled = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const rejected = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect(isMemsvcError((rejected[0] as PromiseRejectedResult).reason, 'DIMENSION_MISMATCH')).toBe(true);
  });
  it("files every tenant's vectors in the shard this process computes for it, any script", async () => {
    const store = await open({ vector: { dimensions: 3 } });
    const tenants = [...Array.from({ length: 60 }, (_, i) => `tenant-${i}`), 'ユーザー', 'émile', '🦊-agent', 'x'.repeat(128)];
    for (const [i, tenant] of tenants.entries()) {
      await store.memories.insertAsGiven(
        tenant as never,
        { tier: 'ltm', content: `fact ${i}`, embedding: { vector: [1, i, 2], model: 'm' } },
        { id: 'test' },
      );
    }
    const rows = await store.connection.db.selectFrom('memories').select(['user_id', 'vector_shard']).execute();
    expect(rows).toHaveLength(tenants.length);
    for (const row of rows) expect(row.vector_shard).toBe(vectorShardOf(row.user_id));
    // 64 tenants over 16 shards: all but a handful of shards are used, so the hash spreads.
    expect(new Set(rows.map((row) => row.vector_shard)).size).toBeGreaterThan(VECTOR_SHARDS / 2);
  });

  it("searches a tenant's nearest memories in its own shard index, and only its rows", async () => {
    const store = await open({ vector: { dimensions: 3 } });
    const tenants = ['alice', 'bob', 'carol'];
    for (let i = 0; i < 300; i++) {
      const tenant = tenants[i % tenants.length] as string;
      await store.memories.insertAsGiven(
        tenant as never,
        { tier: 'ltm', content: `note ${i} of ${tenant}`, embedding: { vector: [1, (i % 17) / 17, (i % 5) / 5], model: 'm' } },
        { id: 'test' },
      );
    }
    await sql`ANALYZE memories`.execute(store.connection.db);
    const nearest = await store.memories.nearest('bob' as never, [1, 0.5, 0.5], 20);
    expect(nearest).toHaveLength(20);
    for (const found of nearest) expect(found.memory.content).toMatch(/ of bob$/);

    const plan = await store.memories.explainRecall('bob' as never, {
      text: 'note of bob',
      vector: [1, 0.5, 0.5],
      perList: 30,
      minSimilarity: 0,
      lexical: LEXICAL_RANKING,
      filters: {},
      now: new Date(),
    });
    // At 300 rows the planner rightly sorts instead of walking a graph; what matters here is
    // that the statement names the tenant's shard as a constant, which is what lets it pick that
    // shard's partial index at scale (the recall benchmark's EXPLAIN shows it at 200,000 rows).
    expect(plan).toContain(`(vector_shard = ${vectorShardOf('bob')})`);
  });
  it('gives every connection the HNSW search settings, so a search needs no transaction around it', async () => {
    const store = await open({ vector: { dimensions: 3, hnswEfSearch: 77 } });
    const settings = async () =>
      (
        await sql<{ ef: string; iterative: string }>`
          SELECT current_setting('hnsw.ef_search') AS ef, current_setting('hnsw.iterative_scan') AS iterative`.execute(store.connection.db)
      ).rows[0];
    // Several at once, so a pool opens more than one connection; each must carry the settings.
    const seen = await Promise.all(Array.from({ length: 6 }, () => settings()));
    for (const row of seen) expect(row).toEqual({ ef: '77', iterative: 'relaxed_order' });
  });
});
