import { isMemsvcError } from '@memsvc/core';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { HNSW_INDEX_NAME, type MemsvcStore, type OpenStoreOptions, openStore } from '../src/index.js';
import { describeEachEngine } from './support/each-engine.js';

describeEachEngine('vector space', (engine) => {
  const stores: MemsvcStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  async function open(options: Partial<OpenStoreOptions> = {}, url?: string) {
    const store = await openStore({ database: url ?? (await engine.freshDatabaseUrl()), ...options });
    stores.push(store);
    return store;
  }
  async function columnType(store: MemsvcStore) {
    const result = await sql<{ type: string }>`
      SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
      WHERE attrelid = 'memories'::regclass AND attname = 'embedding'`.execute(store.connection.db);
    return result.rows[0]?.type;
  }
  async function hnswIndex(store: MemsvcStore) {
    const result = await sql<{ indexdef: string }>`
      SELECT indexdef FROM pg_indexes WHERE indexname = ${HNSW_INDEX_NAME}`.execute(store.connection.db);
    return result.rows[0]?.indexdef;
  }

  it('leaves the dimensionality open until it is known, then fixes it from the first vector', async () => {
    const store = await open({ vector: { model: 'some-unknown-model' } });
    expect(await store.vectorSpace.describe()).toBeUndefined();
    expect(await columnType(store)).toBe('vector');
    expect(await hnswIndex(store)).toBeUndefined();

    await store.memories.insert('t' as never, { tier: 'ltm', content: 'a', embedding: { vector: [1, 0, 0], model: 'm' } }, { id: 'test' });
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
      .insert('t' as never, { tier: 'ltm', content: 'wrong size', embedding: { vector: [1, 2], model: 'm' } }, { id: 'test' })
      .catch((caught: unknown) => caught);
    expect(isMemsvcError(error, 'DIMENSION_MISMATCH')).toBe(true);
    expect((error as Error).message).toMatch(/stores 3-dimensional vectors.*got a 2-dimensional one.*--recreate --regenerate/);
    expect(await store.connection.db.selectFrom('memories').select(sql<number>`count(*)::int`.as('n')).executeTakeFirst()).toEqual({
      n: 0,
    });
  });

  it('refuses, at boot, a pin that disagrees with the stored vectors', async () => {
    const url = await engine.freshDatabaseUrl({ reopenable: true });
    const first = await open({ vector: { dimensions: 4 } }, url);
    await first.close();
    stores.splice(stores.indexOf(first), 1);
    const error = await openStore({ database: url, vector: { dimensions: 5 } }).catch((caught: unknown) => caught);
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
});
