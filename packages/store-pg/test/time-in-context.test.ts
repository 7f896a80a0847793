import { type CallContext, createMemoryEngine, type MemoryEngine, toTenantId } from '@memsvc/core';
import { ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { beforeEach, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { describeEachStore } from './support/each-store.js';

// Issue 38 (Deliver 3): what an agent reads says when each memory was said, and puts the memory
// that replaced another before it. The pair is marked by today's write rules: vectors inside the
// contradiction band make "Berlin" contradict (policy flag) or supersede (policy supersede) "Paris".
const PARIS = 'I live in Paris';
const BERLIN = 'I moved last month, so I live in Berlin now';
const PLANT = 'The office plant needs water on Mondays';
const VECTORS: Record<string, number[]> = {
  [PARIS]: [1, 0, 0],
  [BERLIN]: [0.9, Math.sqrt(1 - 0.81), 0],
  [PLANT]: [0, 0, 1],
};

const alice: CallContext = { tenant: toTenantId('alice'), actor: { id: 'user:alice' } };

describeEachStore('time and replacements in what an agent reads', (kind) => {
  const clock = new ManualClock('2026-11-18T08:00:00.000Z');
  const store = kind.use({ clock, dimensions: 3 });
  // Queries get no vector (they are not listed): ranking is full text alone, so the order is known.
  const embedder = new StaticEmbedder(VECTORS, 'static-test');
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

  /** The plant on 18 Nov, Paris on 20 Nov, Berlin on 24 Nov; now is 27 Nov 14:05 UTC. */
  async function writeTheMove(memories: MemoryEngine) {
    clock.set('2026-11-18T08:00:00.000Z');
    const plant = (await memories.create(alice, { tier: 'ltm', content: PLANT })).memory;
    clock.set('2026-11-20T09:00:00.000Z');
    const paris = (await memories.create(alice, { tier: 'ltm', content: PARIS })).memory;
    clock.set('2026-11-24T14:05:00.000Z');
    const berlin = await memories.create(alice, { tier: 'ltm', content: BERLIN });
    expect(berlin.contradictions.map((c) => c.memoryId)).toEqual([paris.id]);
    clock.set('2026-11-27T14:05:00.000Z');
    return { plant, paris, berlin: berlin.memory };
  }

  beforeEach(async () => {
    await store.reset();
  });

  it(
    verifies('R-TIME-SAID', 'prompt_context, compress_context, load_context and reflect date each memory against the engine clock'),
    async () => {
      const memories = engineWith('flag');
      const { plant, paris, berlin } = await writeTheMove(memories);
      const headerOf = (id: string) => (id === berlin.id ? '2026-11-24T14:05Z, 3 days ago' : '2026-11-20T09:00Z, 7 days ago');
      for (const block of [
        await memories.promptContext(alice, { query: 'where do I live' }),
        await memories.compressContext(alice, { query: 'where do I live' }),
        await memories.loadContext(alice, {}),
      ]) {
        expect(block.text.startsWith('## Memory Context (now 2026-11-27T14:05Z)\n')).toBe(true);
        for (const id of [paris.id, berlin.id]) expect(block.text).toContain(`### ${headerOf(id)} (id ${id}`);
      }
      expect((await memories.loadContext(alice, {})).text).toContain('### 2026-11-18T08:00Z, 9 days ago\nThe office plant');
      expect((await memories.reflect(alice, { query: 'where do I live', minScore: 0 })).summary).toContain(
        `### 2026-11-24T14:05Z, 3 days ago (id ${berlin.id}, current, replaces ${paris.id})\n${BERLIN}`,
      );
      // The clock moves, the ages follow; what was stored does not change.
      clock.set('2027-01-10T14:05:00.000Z');
      expect((await memories.loadContext(alice, {})).text).toContain('### 2026-11-18T08:00Z, 7 weeks ago\nThe office plant');
      expect(plant.createdAt.toISOString()).toBe('2026-11-18T08:00:00.000Z');
    },
  );

  it(
    verifies('R-TIME-CURRENT-FIRST', 'the later of two contradicting memories comes first and the earlier is labelled outdated'),
    async () => {
      const memories = engineWith('flag');
      const { paris, berlin } = await writeTheMove(memories);
      // Recall itself already puts the changed fact first (R-FACT-ORDER); the reader gets Berlin first too.
      const ranked = (await memories.recall(alice, { query: 'where do I live' })).results.map((hit) => hit.memory.id);
      expect(ranked.slice(0, 2)).toEqual([berlin.id, paris.id]);
      const prompt = await memories.promptContext(alice, { query: 'where do I live' });
      expect(prompt.memoryIds.slice(0, 2)).toEqual([berlin.id, paris.id]);
      expect(prompt.text).toContain(`(id ${berlin.id}, current, replaces ${paris.id})\n${BERLIN}`);
      expect(prompt.text).toContain(`(id ${paris.id}, outdated, replaced by ${berlin.id})\n${PARIS}`);
      expect(prompt.text).not.toContain('contradicted');
      const reflected = await memories.reflect(alice, { query: 'where do I live', minScore: 0 });
      expect(reflected.sourceIds.slice(0, 2)).toEqual([berlin.id, paris.id]);
      const session = await memories.loadContext(alice, {});
      expect(session.memoryIds.indexOf(berlin.id)).toBeLessThan(session.memoryIds.indexOf(paris.id));
    },
  );

  it(
    verifies(
      'R-TIME-CURRENT-FIRST',
      'a replacement the search missed is brought in before the hit it replaced, in context and in recall hits',
    ),
    async () => {
      const memories = engineWith('flag');
      const { paris, berlin } = await writeTheMove(memories);
      const block = await memories.promptContext(alice, { query: 'Paris' });
      expect(block.memoryIds).toEqual([berlin.id, paris.id]);
      expect(block.candidatesFound).toBe(2);
      // Recall's hits are the same pass: the replacement the search missed comes with the score of what it replaced.
      const { results: hits } = await memories.recall(alice, { query: 'Paris' });
      const parisScore = hits[1]?.score;
      expect(hits.map((hit) => [hit.memory.id, hit.score, hit.said, hit.ago, hit.replaces, hit.replacedBy])).toEqual([
        [berlin.id, parisScore, '2026-11-24T14:05Z', '3 days ago', [paris.id], undefined],
        [paris.id, parisScore, '2026-11-20T09:00Z', '7 days ago', undefined, berlin.id],
      ]);
      expect(hits.map((hit) => hit.matchScore > 0)).toEqual([false, true]);
      // A filter the replacement does not pass keeps it out; the label still names it.
      const outOfWindow = await memories.promptContext(alice, { query: 'Paris', createdTo: new Date('2026-11-21T00:00:00Z') });
      expect(outOfWindow.memoryIds).toEqual([paris.id]);
      expect(outOfWindow.text).toContain(`(id ${paris.id}, outdated, replaced by ${berlin.id})`);
    },
  );

  it(
    verifies('R-TIME-REPLACED', 'a superseded memory shown on request follows its replacement; a deleted replacement replaces nothing'),
    async () => {
      const superseding = engineWith('supersede');
      const { paris, berlin } = await writeTheMove(superseding);
      expect((await superseding.promptContext(alice, { query: 'Paris' })).memoryIds).toEqual([]);
      const shown = await superseding.promptContext(alice, { query: 'Paris', includeSuperseded: true });
      expect(shown.memoryIds).toEqual([berlin.id, paris.id]);
      expect(shown.text).toContain(`(id ${paris.id}, outdated, replaced by ${berlin.id})`);

      await store.reset();
      const flagging = engineWith('flag');
      const move = await writeTheMove(flagging);
      expect(await flagging.delete(alice, move.berlin.id)).toBe(true);
      const alone = await flagging.promptContext(alice, { query: 'Paris' });
      expect(alone.memoryIds).toEqual([move.paris.id]);
      expect(alone.text).toContain('### 2026-11-20T09:00Z, 7 days ago (contradicted)\nI live in Paris');
      expect(alone.text).not.toContain('outdated');
    },
  );
});
