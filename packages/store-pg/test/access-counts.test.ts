import { toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { MemsvcStore } from '../src/index.js';
import { describeEachEngine } from './support/each-engine.js';
import { openTestStore } from './support/open-test-store.js';

const alice = toTenantId('alice');
const bob = toTenantId('bob');
const actor = { id: 'test' };

/** A deterministic shuffle (xorshift), so a failing order can be replayed. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed || 1;
  for (let i = out.length - 1; i > 0; i--) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const j = Math.abs(state) % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describeEachEngine('access counts', (engine) => {
  let store: MemsvcStore;
  let replica: MemsvcStore | undefined;
  const clock = new ManualClock('2026-06-01T09:00:00.000Z');

  beforeAll(async () => {
    const url = await engine.freshDatabaseUrl();
    store = await openTestStore({ database: url, clock, vector: { dimensions: 3 } });
    if (engine.supportsSecondConnection) replica = await openTestStore({ database: url, clock, vector: { dimensions: 3 } });
  });
  afterAll(async () => {
    await replica?.close();
    await store?.close();
  });

  const insertMemories = async (count: number, prefix: string) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++)
      ids.push((await store.memories.insertAsGiven(alice, { tier: 'ltm', content: `${prefix} ${i}` }, actor)).id);
    return ids;
  };
  const accessCounts = async (ids: readonly string[]) =>
    Promise.all(ids.map(async (id) => (await store.memories.findById(alice, id))?.accessCount));

  it('counts every access exactly while batches overlap: many recalls over many turns, rows in every order', async () => {
    const ids = await insertMemories(24, 'often recalled');
    const expected = new Map(ids.map((id) => [id, 0]));
    const recording: Promise<void>[] = [];
    for (let round = 0; round < 60; round++) {
      // Several recalls of one moment share a batch; the next moment's batch starts while this
      // one may still be being written.
      for (let recall = 0; recall < 4; recall++) {
        const hits = shuffled(ids, round * 31 + recall + 7).slice(0, 12);
        for (const id of hits) expected.set(id, (expected.get(id) ?? 0) + 1);
        recording.push(store.memories.recordAccess(alice, hits));
      }
      await nextTurn();
    }
    const outcomes = await Promise.allSettled(recording);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
    expect(await accessCounts(ids)).toEqual(ids.map((id) => expected.get(id)));
  });

  it("never counts an access on another tenant's memory, nor on a deleted one", async () => {
    const [kept, deleted] = await insertMemories(2, 'scoped');
    await store.memories.softDelete(alice, deleted as string, actor);
    await store.memories.recordAccess(bob, [kept as string]);
    await store.memories.recordAccess(alice, [kept as string, deleted as string, 'not-a-uuid']);
    expect((await store.memories.findById(alice, kept as string))?.accessCount).toBe(1);
    expect((await store.memories.findById(alice, deleted as string, { includeDeleted: true }))?.accessCount).toBe(0);
  });

  it.runIf(engine.supportsSecondConnection)(
    'two replicas counting the same rows in opposite orders both commit every access (a second connection: PostgreSQL only)',
    async () => {
      const ids = await insertMemories(30, 'shared');
      const other = replica as MemsvcStore;
      const recording: Promise<void>[] = [];
      for (let round = 0; round < 40; round++) {
        recording.push(store.memories.recordAccess(alice, ids));
        recording.push(other.memories.recordAccess(alice, [...ids].reverse()));
        await nextTurn();
      }
      const outcomes = await Promise.allSettled(recording);
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      expect(await accessCounts(ids)).toEqual(ids.map(() => 80));
    },
  );
});
