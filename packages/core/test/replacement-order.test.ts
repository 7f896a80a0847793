import { describe, expect, it } from 'vitest';
import { type ReplacementLink, readingOrder, replacementOf } from '../src/domain/replacement-order.js';
import type { MemoryRecord } from '../src/index.js';
import { verifies } from './requirements.js';

const memory = (id: string, createdAt: string, extra: Partial<MemoryRecord> = {}) =>
  ({
    id,
    content: id,
    tags: [],
    tier: 'ltm',
    contradicted: false,
    supersededBy: null,
    createdAt: new Date(createdAt),
    ...extra,
  }) as MemoryRecord;
const link = (sourceMemoryId: string, rel: string, targetMemoryId: string | null): ReplacementLink => ({
  sourceMemoryId,
  rel,
  targetMemoryId,
});
const liveOf = (...memories: MemoryRecord[]) => new Map(memories.map((m) => [m.id, m]));

const paris = memory('paris', '2026-11-20T09:00:00Z', { contradicted: true, content: 'I live in Paris' });
const berlin = memory('berlin', '2026-11-24T14:05:00Z', { contradicted: true, content: 'I moved, so I live in Berlin now' });
const munich = memory('munich', '2026-11-26T08:00:00Z', { contradicted: true, content: 'I live in Munich now' });

describe('what replaced what', () => {
  it(verifies('R-TIME-REPLACED', 'of two memories linked as contradicting, the later one replaces the earlier, from either end'), () => {
    const links = [link('berlin', 'contradicts', 'paris'), link('paris', 'contradicts', 'berlin')];
    expect(replacementOf(paris, links, liveOf(paris, berlin))).toBe('berlin');
    expect(replacementOf(berlin, links, liveOf(paris, berlin))).toBeUndefined();
    expect(replacementOf(paris, [link('berlin', 'contradicts', 'paris')], liveOf(paris, berlin))).toBe('berlin');
  });

  it(
    verifies('R-TIME-REPLACED', 'supersededBy and supersedes/superseded-by links name the replacement; the latest of several wins'),
    () => {
      const superseded = memory('old', '2026-11-01T00:00:00Z', { supersededBy: 'berlin' });
      expect(replacementOf(superseded, [], liveOf(superseded, berlin))).toBe('berlin');
      const old = memory('old', '2026-11-01T00:00:00Z');
      expect(replacementOf(old, [link('old', 'superseded-by', 'berlin')], liveOf(old, berlin))).toBe('berlin');
      expect(replacementOf(old, [link('berlin', 'supersedes', 'old')], liveOf(old, berlin))).toBe('berlin');
      // The reverse direction means the opposite: old supersedes berlin, so nothing replaced old.
      expect(replacementOf(old, [link('old', 'supersedes', 'berlin')], liveOf(old, berlin))).toBeUndefined();
      const both = [link('paris', 'contradicts', 'berlin'), link('paris', 'contradicts', 'munich')];
      expect(replacementOf(paris, both, liveOf(paris, berlin, munich))).toBe('munich');
    },
  );

  it(verifies('R-TIME-REPLACED', 'a changed fact found at write time (replacedBy) names its replacement, with no link read'), () => {
    const changed = memory('old', '2026-11-01T00:00:00Z', { replacedBy: 'berlin' });
    expect(replacementOf(changed, [], liveOf(changed, berlin))).toBe('berlin');
    expect(replacementOf(memory('old', '2026-11-01T00:00:00Z', { replacedBy: 'gone' }), [], liveOf())).toBeUndefined();
  });

  it(
    verifies('R-TIME-REPLACED', 'a later look-alike linked as contradicting replaces nothing: it is not a change of the same fact'),
    () => {
      const dana = memory('dana', '2026-11-20T09:00:00Z', { contradicted: true, content: 'Dana lives in Lisbon' });
      const ivo = memory('ivo', '2026-11-24T14:05:00Z', { contradicted: true, content: 'Ivo lives in Toronto' });
      expect(replacementOf(dana, [link('dana', 'contradicts', 'ivo')], liveOf(dana, ivo))).toBeUndefined();
      // A write's own marker still names its replacement, whatever the words.
      expect(replacementOf({ ...dana, supersededBy: 'ivo' }, [], liveOf(dana, ivo))).toBe('ivo');
    },
  );

  it(verifies('R-TIME-REPLACED', 'a replacement that is no longer live (deleted, expired, purged) replaces nothing'), () => {
    const links = [link('paris', 'contradicts', 'berlin'), link('paris', 'contradicts', null)];
    expect(replacementOf(paris, links, liveOf(paris))).toBeUndefined();
    expect(replacementOf(memory('old', '2026-11-01T00:00:00Z', { supersededBy: 'gone' }), [], liveOf())).toBeUndefined();
    // Unrelated links (a duplicate, a relation an import stated) replace nothing either.
    expect(replacementOf(paris, [link('paris', 'relates-to', 'berlin')], liveOf(paris, berlin))).toBeUndefined();
  });
});

describe('the current memory first', () => {
  const ids = (entries: { memory: MemoryRecord }[]) => entries.map((entry) => entry.memory.id);
  // A list without scores (load_context's), and the memories found outside it.
  const currentFirst = (memories: MemoryRecord[], replacedBy: Map<string, string>, outside: MemoryRecord[] = []) =>
    readingOrder(
      memories.map((memory) => ({ memory, score: 0 })),
      replacedBy,
      new Map(outside.map((memory) => [memory.id, memory])),
    );
  const a = memory('a', '2026-11-01T00:00:00Z');
  const b = memory('b', '2026-11-02T00:00:00Z');

  it(verifies('R-TIME-CURRENT-FIRST', 'moves a replacement up to just before what it replaced, and labels both'), () => {
    const entries = currentFirst([a, paris, b, berlin], new Map([['paris', 'berlin']]));
    expect(ids(entries)).toEqual(['a', 'berlin', 'paris', 'b']);
    expect(entries[1]).toMatchObject({ replaces: ['paris'] });
    expect(entries[2]).toMatchObject({ replacedBy: 'berlin' });
    expect(entries[0]).not.toHaveProperty('replacedBy');
    expect(entries[0]).not.toHaveProperty('replaces');
  });

  it(verifies('R-TIME-CURRENT-FIRST', 'keeps rank order when the replacement already comes first, and adds one the list lacks'), () => {
    expect(ids(currentFirst([berlin, a, paris], new Map([['paris', 'berlin']])))).toEqual(['berlin', 'a', 'paris']);
    const added = currentFirst([a, paris], new Map([['paris', 'berlin']]), [berlin]);
    expect(ids(added)).toEqual(['a', 'berlin', 'paris']);
    // A replacement that is neither listed nor given is named, not invented.
    expect(currentFirst([paris], new Map([['paris', 'berlin']]))).toEqual([{ memory: paris, score: 0, replacedBy: 'berlin' }]);
  });

  it(verifies('R-TIME-CURRENT-FIRST', 'reads a chain newest first and cannot loop on a cycle'), () => {
    const chain = new Map([
      ['paris', 'berlin'],
      ['berlin', 'munich'],
    ]);
    expect(ids(currentFirst([paris, a, berlin, munich], chain))).toEqual(['munich', 'berlin', 'paris', 'a']);
    const cycle = new Map([
      ['a', 'b'],
      ['b', 'a'],
    ]);
    expect(ids(currentFirst([a, b], cycle))).toEqual(['b', 'a']);
  });

  it(verifies('R-TIME-CURRENT-FIRST', 'passes over a replacement the reader may not see for the one that replaced it'), () => {
    const chain = new Map([
      ['paris', 'berlin'],
      ['berlin', 'munich'],
    ]);
    const hidden = (memory: MemoryRecord) => memory.id !== 'berlin';
    const entries = readingOrder([{ memory: paris, score: 0.7 }], chain, new Map([berlin, munich].map((m) => [m.id, m])), hidden);
    expect(ids(entries)).toEqual(['munich', 'paris']);
    expect(entries[1]).toMatchObject({ replacedBy: 'munich' });
    expect(entries[0]).toMatchObject({ replaces: ['paris'], score: 0.7 });
    // With nothing of the chain to show, the direct replacement is only named.
    const none = readingOrder([{ memory: paris, score: 0.7 }], chain, new Map([berlin, munich].map((m) => [m.id, m])), () => false);
    expect(none).toEqual([{ memory: paris, score: 0.7, replacedBy: 'berlin' }]);
  });

  it(verifies('R-FACT-ORDER', 'a replacement reads with at least the score of what it replaced'), () => {
    const entries = readingOrder(
      [
        { memory: paris, score: 0.9 },
        { memory: a, score: 0.5 },
        { memory: berlin, score: 0.2 },
      ],
      new Map([['paris', 'berlin']]),
    );
    expect(entries.map((entry) => [entry.memory.id, entry.score])).toEqual([
      ['berlin', 0.9],
      ['paris', 0.9],
      ['a', 0.5],
    ]);
  });
});
