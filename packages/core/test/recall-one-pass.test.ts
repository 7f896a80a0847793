import { describe, expect, it } from 'vitest';
import { createMemoryEngine, type MemoryStore, toTenantId } from '../src/index.js';
import {
  InMemoryErasureStore,
  InMemoryGrantStore,
  InMemoryMemoryStore,
  inMemoryEngine,
  ManualClock,
  StaticEmbedder,
} from '../src/testing/index.js';
import { verifies } from './requirements.js';

/** The store's reads a recall makes, by method, around a real in-memory store. */
function countingStore(store: MemoryStore): { store: MemoryStore; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const counted = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.set(String(property), (calls.get(String(property)) ?? 0) + 1);
        return value.apply(target, args);
      };
    },
  });
  return { store: counted, calls };
}

describe('recall in one pass', () => {
  const tenant = toTenantId('ana');
  const context = { tenant, actor: { id: 'user:ana' } };

  it(
    verifies('R-RECALL-ONE-PASS', 'the replacements of every hit are read in one batch per round, never one memory at a time'),
    async () => {
      const clock = new ManualClock('2026-05-01T10:00:00Z');
      const store = new InMemoryMemoryStore({ clock });
      const counting = countingStore(store);
      const engine = createMemoryEngine({
        store: counting.store,
        embedder: new StaticEmbedder({}, 'static-test'),
        clock,
        grants: new InMemoryGrantStore(),
        erasures: new InMemoryErasureStore(store, clock),
      });
      // Twelve topics, each said, then replaced (supersedes); four replaced once more: chains two deep.
      const first: string[] = [];
      const second: string[] = [];
      const third: string[] = [];
      for (let topic = 0; topic < 12; topic++) {
        clock.advance(60_000);
        const older = (await engine.create(context, { tier: 'ltm', content: `topic ${topic} plan alpha draft` })).memory;
        clock.advance(60_000);
        const newer = (await engine.create(context, { tier: 'ltm', content: `topic ${topic} agreed`, supersedes: [older.id] })).memory;
        first.push(older.id);
        second.push(newer.id);
        if (topic < 4) {
          clock.advance(60_000);
          third.push((await engine.create(context, { tier: 'ltm', content: `topic ${topic} final`, supersedes: [newer.id] })).memory.id);
        }
      }
      counting.calls.clear();
      const { results } = await engine.recall(context, { query: 'alpha', includeSuperseded: true, limit: 50 });

      // Two rounds (the replacements, then theirs), one read of memories each; no read per memory.
      expect(counting.calls.get('findLiveByIds')).toBe(2);
      expect(counting.calls.get('findById')).toBeUndefined();
      expect(counting.calls.get('links')).toBeUndefined();
      expect(counting.calls.get('recallCandidates')).toBe(1);
      // Each chain reads newest first, each older memory labelled with the one that replaced it.
      const ids = results.map((hit) => hit.memory.id);
      expect(ids.indexOf(third[0] as string)).toBeLessThan(ids.indexOf(second[0] as string));
      expect(ids.indexOf(second[0] as string)).toBeLessThan(ids.indexOf(first[0] as string));
      expect(results.find((hit) => hit.memory.id === first[5])?.replacedBy).toBe(second[5]);
      expect(results.find((hit) => hit.memory.id === second[5])?.replaces).toEqual([first[5]]);
      // Dated, scored, at most the limit.
      expect(results.length).toBeLessThanOrEqual(50);
      expect(results.every((hit) => hit.said.endsWith('Z') && hit.ago.length > 0 && hit.score > 0)).toBe(true);
    },
  );

  it(verifies('R-RECALL-ONE-PASS', 'replacements count against the limit: the answer has at most limit hits'), async () => {
    const clock = new ManualClock('2026-05-01T10:00:00Z');
    const store = new InMemoryMemoryStore({ clock });
    const engine = inMemoryEngine(store, { embedder: new StaticEmbedder({}, 'static-test'), clock });
    for (let topic = 0; topic < 6; topic++) {
      clock.advance(60_000);
      const older = (await engine.create(context, { tier: 'ltm', content: `topic ${topic} plan alpha draft` })).memory;
      clock.advance(60_000);
      await engine.create(context, { tier: 'ltm', content: `topic ${topic} agreed`, supersedes: [older.id] });
    }
    const { results } = await engine.recall(context, { query: 'alpha', includeSuperseded: true, limit: 4 });
    expect(results).toHaveLength(4);
    expect(results[0]?.replaces).toHaveLength(1);
    expect(results[1]?.replacedBy).toBe(results[0]?.memory.id);
  });
});
