import { describe, expect, it } from 'vitest';
import { factShape } from '../src/domain/fact-shape.js';
import { newerSaidFirst, readsFirst } from '../src/domain/newer-said-first.js';
import { readingOrder } from '../src/domain/replacement-order.js';
import type { MemoryRecord } from '../src/index.js';

const memory = (id: string, content: string, createdAt: string, extra: Partial<MemoryRecord> = {}) =>
  ({
    id,
    content,
    tags: [],
    tier: 'ltm',
    scope: null,
    metadata: {},
    contradicted: false,
    supersededBy: null,
    createdAt: new Date(createdAt),
    ...extra,
  }) as MemoryRecord;
const hits = (...memories: MemoryRecord[]) => memories.map((m, i) => ({ memory: m, score: 1 - i / 10 }));
const reads = (query: string, older: string, newer: string) => readsFirst(factShape(query), factShape(older), factShape(newer));

const iphone = memory('iphone', 'My phone is an iPhone', '2026-03-02T09:00:00Z');
const android = memory('android', "I'm on Android now", '2026-04-01T09:00:00Z');

describe('R-FACT-NEWER-FIRST: a newer related statement read before the older, unmarked', () => {
  it('R-FACT-NEWER-FIRST: the newer related statement that answers the query is read first; nothing is labelled replaced', () => {
    const ranked = hits(iphone, android);
    const ahead = newerSaidFirst(ranked, 'what phone do I use?');
    expect([...ahead]).toEqual([['iphone', 'android']]);
    const ordered = readingOrder(ranked, new Map(), new Map(), () => true, ahead);
    expect(ordered.map((entry) => [entry.memory.id, entry.replacedBy, entry.replaces])).toEqual([
      ['android', undefined, undefined],
      ['iphone', undefined, undefined],
    ]);
    // Read in score order: the newer takes the score of the older it is read before.
    expect(ordered[0]?.score).toBe(1);
    expect(ordered[1]?.score).toBe(1);
  });

  it('R-FACT-NEWER-FIRST: the changes no rule marks are read newest first', () => {
    expect(reads('what do I like to drink?', 'My favourite drink is coffee', 'These days I only drink tea')).toBe(true);
    expect(reads('which Slack workspace do we use?', 'The Slack workspace is acme-eng', 'We merged into the acme-hq Slack workspace')).toBe(
      true,
    );
    // A word of the query the newer says by its topic: "work" / "joined".
    expect(
      reads(
        'where does the user work?',
        'The user works at Acme Corp as a backend engineer',
        'The user left Acme Corp and joined Globex as a staff engineer',
      ),
    ).toBe(true);
  });

  it('R-FACT-NEWER-FIRST: look-alikes keep their order', () => {
    // The query asks what only the older says.
    expect(reads('who owns billing?', 'Kenji owns the billing service', 'Kenji now took over search')).toBe(false);
    // An addition, another thing of the speaker's, an event told in the past.
    expect(reads('which languages do I speak?', 'I speak French', 'I also speak German')).toBe(false);
    expect(reads('how much do I weigh?', 'I weigh 82 kg', 'My suitcase weighs 23 kg')).toBe(false);
    expect(reads('who wrote the auth service?', 'The auth service was written by Dana', 'The auth service was reviewed by Eli')).toBe(
      false,
    );
    // Nothing of the older replaced ("Acme" kept), or no value of its kind (a day for an employer).
    expect(reads('where do I work?', 'I work at Acme', 'I joined the Acme running club')).toBe(false);
    expect(reads('where do I work?', 'I work at Shopify', 'I now work remotely on Fridays')).toBe(false);
    // No cue links them at all.
    expect(reads('where does Alice live?', 'Alice lives in Paris', 'Bob lives in Berlin')).toBe(false);
  });

  it('R-FACT-NEWER-FIRST: a newer one already first, another scope, and conversation turns keep their order', () => {
    // The newer already first stays first; an older one is never read before a newer.
    const already = hits(android, iphone);
    const kept = readingOrder(already, new Map(), new Map(), () => true, newerSaidFirst(already, 'what phone do I use?'));
    expect(kept.map((entry) => [entry.memory.id, entry.score])).toEqual([
      ['android', 1],
      ['iphone', 0.9],
    ]);
    const elsewhere = memory('elsewhere', "I'm on Android now", '2026-04-01T09:00:00Z', { scope: 'work' });
    expect(newerSaidFirst(hits(iphone, elsewhere), 'what phone do I use?').size).toBe(0);
    const turnBefore = memory('t1', 'user: My phone is an iPhone', '2026-03-02T09:00:00Z');
    const turnAfter = memory('t2', "user: I'm on Android now", '2026-04-01T09:00:00Z');
    expect(newerSaidFirst(hits(turnBefore, turnAfter), 'what phone do I use?').size).toBe(0);
  });

  it('R-FACT-NEWER-FIRST: a replacement a write marked comes first; the order never loops', () => {
    const pixel = memory('pixel', 'I switched to a Pixel 8', '2026-05-01T09:00:00Z');
    const ranked = hits(iphone, android, pixel);
    const ordered = readingOrder(ranked, new Map([['iphone', 'pixel']]), new Map(), () => true, new Map([['iphone', 'android']]));
    expect(ordered.map((entry) => entry.memory.id)).toEqual(['pixel', 'iphone', 'android']);
    const loop = readingOrder(
      hits(iphone, android),
      new Map(),
      new Map(),
      () => true,
      new Map([
        ['iphone', 'android'],
        ['android', 'iphone'],
      ]),
    );
    expect(loop.map((entry) => entry.memory.id).sort()).toEqual(['android', 'iphone']);
  });
});
