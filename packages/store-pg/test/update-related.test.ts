import { type CallContext, toTenantId } from '@memsvc/core';
import { expect, it } from 'vitest';
import { describeEachStore } from './support/each-store.js';
import { wordsOnlyEngine } from './support/words-only-engine.js';

const DAY = 86_400_000;
const context = (tenant: string): CallContext => ({ tenant: toTenantId(tenant), actor: { id: `user:${tenant}` } });
const ana = context('ana');

/**
 * Issue 53 #4 on every store: an update that changes what a memory says returns `related` as a
 * create of the new statement does (R-FACT-RELATED), found in the update's own unit of work, and
 * marks none of them; an update that leaves the content as it was returns none.
 */
describeEachStore('related memories of an update', (kind) => {
  const { clock, engine } = wordsOnlyEngine(kind);

  const remember = async (content: string) => (await engine().create(ana, { tier: 'ltm', content })).memory;
  const distractors = async () => {
    for (const content of ['Our standup is at 9:30', 'My sister lives in Lyon', 'The API runs on Node 22']) {
      await remember(content);
      clock.advance(60_000);
    }
  };

  it('R-FACT-RELATED: new content lists what the new statement may change, with why, and marks nothing', async () => {
    await distractors();
    const paris = await remember('I live in Paris');
    const golf = await remember('My car is a Golf');
    const note = await remember('I like green tea');
    clock.advance(30 * DAY);

    const moved = await engine().revise(ana, note.id, { content: 'I moved to Berlin last month, so I live in Berlin now' }, 1);
    expect(moved.memory).toMatchObject({ id: note.id, version: 2 });
    expect(moved.related).toEqual([
      expect.objectContaining({
        id: paris.id,
        content: 'I live in Paris',
        why: 'changed-fact',
        reason: 'changed fact',
        replacedValues: ['paris'],
      }),
    ]);
    // Unlike a create, an update leaves the older memory as it was: the caller passes `supersedes`.
    expect(await engine().getUncounted(ana, paris.id)).toMatchObject({ replacedBy: null, supersededBy: null, version: 1 });

    const bought = await engine().revise(ana, note.id, { content: 'I bought a Tesla' }, 2);
    expect(bought.related).toEqual([expect.objectContaining({ id: golf.id, why: 'may-change', reason: 'same owner, a new one acquired' })]);
  });

  it('R-FACT-RELATED: never the updated memory itself, nor a memory the same update retires', async () => {
    await distractors();
    const paris = await remember('I live in Paris');
    clock.advance(30 * DAY);

    // Paris itself says the new thing now: it is not its own related memory.
    const itself = await engine().revise(ana, paris.id, { content: 'I live in Berlin now' }, 1);
    expect(itself.related.map((entry) => entry.id)).not.toContain(paris.id);

    const note = await remember('I like green tea');
    const retiring = await engine().revise(
      ana,
      note.id,
      { content: 'I moved to Madrid, so I live in Madrid now', supersedes: [paris.id] },
      1,
    );
    expect(retiring.superseded).toEqual([{ memoryId: paris.id, version: 3 }]);
    expect(retiring.related.map((entry) => entry.id)).not.toContain(paris.id);
    expect(retiring.related.map((entry) => entry.id)).not.toContain(note.id);
  });

  it('R-FACT-RELATED: an update that leaves the content as it was (tags, metadata, pin, or the same text) returns no related memories', async () => {
    await distractors();
    await remember('I live in Paris');
    const note = await remember('I moved to Berlin');
    const retagged = await engine().revise(ana, note.id, { tags: ['home'], metadata: { source: 'chat' }, pinned: true }, 1);
    expect(retagged).toMatchObject({ memory: { version: 2, tags: ['home'] }, related: [], superseded: [] });
    const same = await engine().revise(ana, note.id, { content: 'I moved to Berlin' }, 2);
    expect(same.related).toEqual([]);
  });
});
