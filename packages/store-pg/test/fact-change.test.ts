import { type CallContext, toTenantId } from '@memsvc/core';
import { expect, it } from 'vitest';
import { describeEachStore } from './support/each-store.js';
import { wordsOnlyEngine } from './support/words-only-engine.js';

const DAY = 86_400_000;
const context = (tenant: string): CallContext => ({ tenant: toTenantId(tenant), actor: { id: `user:${tenant}` } });
const ana = context('ana');

/**
 * Issue 38 #1 on every store: a changed fact is found among the write's lexical neighbours (no
 * vectors here, so the contradiction band cannot see it), the older memory is marked, and recall
 * puts the replacement first.
 */
describeEachStore('changed facts', (kind) => {
  const { clock, store, engine } = wordsOnlyEngine(kind);

  const remember = async (content: string, tenant = ana) => (await engine().create(tenant, { tier: 'ltm', content })).memory;
  const distractors = async () => {
    for (const content of ['I like green tea', 'Our standup is at 9:30', 'My sister lives in Lyon', 'The API runs on Node 22']) {
      await remember(content);
      clock.advance(60_000);
    }
  };

  it('R-FACT-WRITE: a changed fact marks the older memory replacedBy the new one, visible, audited and linked', async () => {
    await distractors();
    const paris = await remember('I live in Paris');
    clock.advance(30 * DAY);
    const berlin = await engine().create(ana, { tier: 'ltm', content: 'I moved to Berlin last month, so I live in Berlin now' });

    expect(berlin.related).toEqual([expect.objectContaining({ id: paris.id, content: 'I live in Paris', why: 'changed-fact' })]);
    const older = await engine().getUncounted(ana, paris.id);
    expect(older).toMatchObject({ replacedBy: berlin.memory.id, supersededBy: null, contradicted: false, version: 1 });
    const listed = await engine().list(ana, { limit: 20 });
    expect(listed.items.map((item) => item.id)).toContain(paris.id);
    expect((await engine().audit(ana, paris.id)).map((entry) => entry.action)).toEqual(['fact-change', 'create']);
    const links = (await store.links()).filter((link) => [link.source, link.target].includes(paris.id));
    expect(links).toEqual(
      expect.arrayContaining([
        { source: berlin.memory.id, target: paris.id, rel: 'supersedes' },
        { source: paris.id, target: berlin.memory.id, rel: 'superseded-by' },
      ]),
    );
    // Nothing else of the tenant was touched.
    const marked = listed.items.filter((item) => item.replacedBy);
    expect(marked.map((item) => item.id)).toEqual([paris.id]);
  });

  it('R-FACT-RELATED, R-FACT-TOPIC: with no word in common and no vectors, the topic words find the older fact; a write it cannot decide lists it, unmarked', async () => {
    await distractors();
    const paris = await remember('I live in Paris');
    const golf = await remember('My car is a Golf');
    clock.advance(30 * DAY);
    const berlin = await engine().create(ana, { tier: 'ltm', content: 'I moved to Berlin' });
    // "My sister lives in Lyon" shares the topic, but is about her.
    expect(berlin.related).toEqual([expect.objectContaining({ id: paris.id, why: 'changed-fact', reason: 'changed fact' })]);
    expect(await engine().getUncounted(ana, paris.id)).toMatchObject({ replacedBy: berlin.memory.id });

    const tesla = await engine().create(ana, { tier: 'ltm', content: 'I bought a Tesla' });
    expect(tesla.related).toEqual([expect.objectContaining({ id: golf.id, why: 'may-change', reason: 'same owner, a new one acquired' })]);
    expect(await engine().getUncounted(ana, golf.id)).toMatchObject({ replacedBy: null, supersededBy: null });
  });

  it('R-FACT-WRITE: a short-term note that changes a long-term fact marks it when written, and its promotion keeps the one mark', async () => {
    await distractors();
    const old = await remember('The staging server is at 10.0.3.12');
    clock.advance(DAY);
    const note = (await engine().create(ana, { tier: 'stm', content: 'Staging got a new IP: 10.0.7.40', ttlSeconds: 7 * 86_400 })).memory;
    // A short-term write is compared with long-term rows too: the change is seen at once.
    expect(await engine().getUncounted(ana, old.id)).toMatchObject({ replacedBy: note.id, supersededBy: null });
    expect((await engine().promote(ana, note.id)).outcome).toBe('promoted');
    expect(await engine().getUncounted(ana, old.id)).toMatchObject({ replacedBy: note.id, supersededBy: null });
    const actions = (await engine().audit(ana, old.id)).map((entry) => entry.action);
    expect(actions.filter((action) => action === 'fact-change')).toHaveLength(1);
  });

  it('R-FACT-ORDER: recall puts the replacement first, even when it shares no word with the question', async () => {
    await distractors();
    const civic = await remember('I drive a 2015 Honda Civic');
    const paris = await remember('I live in Paris');
    clock.advance(30 * DAY);
    const tesla = await remember('I sold the Civic and bought a Tesla Model 3');
    const berlin = await remember('I moved to Berlin last month, so I live in Berlin now');
    clock.advance(DAY);

    const car = (await engine().recall(ana, { query: 'what car do I drive?' })).results;
    expect(car.slice(0, 2).map((result) => [result.memory.id, result.replacedBy])).toEqual([
      [tesla.id, undefined],
      [civic.id, tesla.id],
    ]);
    const home = (await engine().recall(ana, { query: 'where do I live?' })).results;
    expect(home.slice(0, 2).map((result) => [result.memory.id, result.replacedBy])).toEqual([
      [berlin.id, undefined],
      [paris.id, berlin.id],
    ]);
  });

  it('R-FACT-ORDER: the docs example — "I live in Paris", then "I moved to Berlin": where do I live? answers Berlin first', async () => {
    await distractors();
    const paris = await remember('I live in Paris');
    clock.advance(30 * DAY);
    const berlin = await remember('I moved to Berlin');
    clock.advance(DAY);

    const home = (await engine().recall(ana, { query: 'where do I live?' })).results;
    expect(home.slice(0, 2).map((result) => [result.memory.id, result.replacedBy])).toEqual([
      [berlin.id, undefined],
      [paris.id, berlin.id],
    ]);
  });

  it('R-FACT-NEWER-FIRST: recall reads a newer related statement first and marks nothing; a look-alike asked about keeps its place', async () => {
    await distractors();
    const coffee = await remember('I drink coffee');
    const acme = await remember('I work at Acme');
    clock.advance(30 * DAY);
    const tea = await engine().create(ana, { tier: 'ltm', content: 'These days I only drink green tea in the mornings' });
    const club = await remember('I joined the Acme running club');
    clock.advance(DAY);
    // The write could not decide: it lists the older, and marks nothing.
    expect(tea.related).toEqual(expect.arrayContaining([expect.objectContaining({ id: coffee.id, why: 'may-change' })]));

    const drink = (await engine().recall(ana, { query: 'what do I drink?' })).results;
    const order = drink.map((result) => result.memory.id);
    expect(order.indexOf(tea.memory.id)).toBe(order.indexOf(coffee.id) - 1);
    for (const result of drink) expect([result.replacedBy, result.replaces]).toEqual([undefined, undefined]);
    expect(await engine().getUncounted(ana, coffee.id)).toMatchObject({ replacedBy: null, supersededBy: null, contradicted: false });
    const block = await engine().promptContext(ana, { query: 'what do I drink?' });
    expect(block.memoryIds.indexOf(tea.memory.id)).toBe(block.memoryIds.indexOf(coffee.id) - 1);

    // "I joined the Acme running club" adds to "I work at Acme", it changes nothing.
    const work = (await engine().recall(ana, { query: 'where do I work at Acme?' })).results;
    const ids = work.map((result) => result.memory.id);
    expect(ids).toContain(club.id);
    expect(ids.indexOf(acme.id)).toBeLessThan(ids.indexOf(club.id));
  });

  it('R-FACT-WRITE: look-alikes of the same tenant and another tenant’s fact are left alone', async () => {
    const alice = await remember('Alice lives in Paris');
    const auth = await remember('The auth service listens on port 8080');
    const elsewhere = await remember('I live in Paris', context('bea'));
    clock.advance(30 * DAY);
    const bob = await engine().create(ana, { tier: 'ltm', content: 'Bob lives in Berlin' });
    const billing = await engine().create(ana, { tier: 'ltm', content: 'The billing service listens on port 9090' });
    await remember('I moved to Berlin last month, so I live in Berlin now');

    expect(bob.related).toEqual([]);
    expect(billing.related).toEqual([]);
    for (const id of [alice.id, auth.id]) expect((await engine().getUncounted(ana, id)).replacedBy).toBeNull();
    expect((await engine().getUncounted(context('bea'), elsewhere.id)).replacedBy).toBeNull();
    const results = (await engine().recall(ana, { query: 'where does Alice live?' })).results;
    expect(results[0]?.memory.id).toBe(alice.id);
    expect(results.every((result) => result.replacedBy === undefined || result.memory.id !== alice.id)).toBe(true);
  });
});
