import { describe, expect, it } from 'vitest';
import { detectFactChange, type MemoryRecord, orderReplacementsFirst, type RankedMemory } from '../src/index.js';
import { verifies } from './requirements.js';

/** [older, newer]: the newer states a changed value of the older's fact. */
const CHANGES: readonly (readonly [string, string])[] = [
  ['I live in Paris', 'I moved to Berlin last month, so I live in Berlin now'],
  ['I drive a 2015 Honda Civic', 'I sold the Civic and bought a Tesla Model 3'],
  ['The auth service listens on port 8080', 'The auth service now listens on port 9443'],
  ['My rent is $1,450 a month', 'My rent went up to $1,620 a month'],
  ['I use VS Code for everything', 'I switched from VS Code to Neovim'],
  ['Lena lives in Munich', 'Lena relocated to Vienna in the spring'],
  ['Kenji owns the billing service', 'Ownership of the billing service passed from Kenji to Amara'],
  ['Our CI runs on CircleCI', 'CI was migrated to GitHub Actions'],
  ['Sara is a senior engineer', 'Sara got promoted to staff engineer'],
  ['The Atlas 2.0 release is planned for March 14', 'The Atlas 2.0 release slipped to April 2'],
  ['The grant proposal is due on 15 May', 'The grant proposal deadline moved to 29 May'],
  ['My landlord is Mr. Haddad', 'The flat was sold; my landlord is now Greenfield Estates'],
];

/** [first, later]: look alike, but the later one does not replace the first. */
const LOOK_ALIKES: readonly (readonly [string, string])[] = [
  ['Alice lives in Paris', 'Bob lives in Berlin'],
  ['The auth service listens on port 8080', 'The billing service listens on port 9090'],
  ['Project Atlas is due on 14 March', 'Project Beacon is due on 2 April'],
  ['I speak French', 'I also speak German'],
  ["Priya's manager is Tom", "Tom's manager is Sandra"],
  ['Lena lives in Munich', "Lena's sister lives in Vienna"],
  ['I drive a Honda Civic', 'My wife drives a Tesla'],
  ['The EU servers run in eu-west-1', 'The US servers run in us-east-1'],
  ['I live in Paris', 'Kim lives at 5 Elm Court'],
  ['I ran 10 km on Saturday', 'I ran 12 km on Sunday'],
  ['The Q3 marketing budget is 40,000 euros', 'The Q3 hiring budget is 120,000 euros'],
  ['Our office is at 12 Baker Street', 'Our warehouse is at 48 Canal Road'],
  ['The auth service was written by Dana', 'The auth service was reviewed by Eli'],
  ['Atlas launched on 2 September 2024', 'On 9 December 2025 Atlas crossed one million invoices processed'],
  ['Marco has a new phone number: +39 320 555 7781', 'Caroline: I moved to Berlin'],
];

describe('detectFactChange', () => {
  it.each(CHANGES)(verifies('R-FACT-DETECT', '"%s" is changed by "%s"'), (older, newer) => {
    expect(detectFactChange(older, newer)).toBeDefined();
  });

  it.each(LOOK_ALIKES)(verifies('R-FACT-DETECT', '"%s" is not changed by "%s"'), (first, later) => {
    expect(detectFactChange(first, later)).toBeUndefined();
  });

  it(verifies('R-FACT-DETECT', 'names what the older memory said that the newer one replaced'), () => {
    expect(detectFactChange('I live in Paris', 'I moved to Berlin, so I live in Berlin now')?.replacedValues).toEqual(['paris']);
  });
});

let day = 0;
/** A memory said one day after the previous one. */
const memory = (id: string, content: string, fields: Partial<MemoryRecord> = {}): MemoryRecord => {
  day += 1;
  return {
    id,
    content,
    scope: null,
    metadata: {},
    createdAt: new Date(Date.parse('2026-03-01T00:00:00Z') + day * 86_400_000),
    replacedBy: null,
    supersededBy: null,
    ...fields,
  } as MemoryRecord;
};
const ranked = (record: MemoryRecord, score: number): RankedMemory => ({
  memory: record,
  score,
  matchScore: score,
  vectorRank: undefined,
  lexicalRank: 1,
  similarity: undefined,
});

describe('orderReplacementsFirst', () => {
  it(verifies('R-FACT-ORDER', 'a newer memory among the candidates that changes a fact goes before it, the older one labelled'), () => {
    const paris = memory('paris', 'I live in Paris');
    const other = memory('tea', 'I like green tea');
    const berlin = memory('berlin', 'I moved to Berlin last month, so I live in Berlin now');
    const ordered = orderReplacementsFirst([ranked(paris, 0.9), ranked(other, 0.5), ranked(berlin, 0.4)], [], 10);
    expect(ordered.map((result) => result.memory.id)).toEqual(['berlin', 'paris', 'tea']);
    expect(ordered[0]?.score).toBe(0.9);
    expect(ordered[1]?.replacedBy).toBe('berlin');
  });

  it(verifies('R-FACT-ORDER', "a marked memory's replacement comes before it even when the query did not find it"), () => {
    const tesla = memory('tesla', 'I sold the Civic and bought a Tesla Model 3');
    const civic = memory('civic', 'I drive a 2015 Honda Civic', { replacedBy: 'tesla' });
    const ordered = orderReplacementsFirst([ranked(civic, 0.8)], [tesla], 10);
    expect(ordered.map((result) => [result.memory.id, result.replacedBy])).toEqual([
      ['tesla', undefined],
      ['civic', 'tesla'],
    ]);
  });

  it(verifies('R-FACT-ORDER', 'look-alikes keep their order and no label; a replacement in another scope does not count'), () => {
    const alice = memory('alice', 'Alice lives in Paris');
    const bob = memory('bob', 'Bob lives in Berlin');
    const work = memory('work', 'I live in Paris', { scope: 'work' });
    const home = memory('home', 'I moved to Berlin, so I live in Berlin now', { scope: 'home' });
    const ordered = orderReplacementsFirst([ranked(alice, 0.9), ranked(bob, 0.8), ranked(work, 0.7), ranked(home, 0.6)], [], 10);
    expect(ordered.map((result) => result.memory.id)).toEqual(['alice', 'bob', 'work', 'home']);
    expect(ordered.every((result) => result.replacedBy === undefined)).toBe(true);
  });
  it(verifies('R-FACT-ORDER', 'conversation turns are what was said then: never reordered or labelled as replaced'), () => {
    const before = memory('t1', 'Caroline: I live in Paris');
    const after = memory('t2', 'Caroline: I moved to Berlin, so I live in Berlin now');
    const ordered = orderReplacementsFirst([ranked(before, 0.9), ranked(after, 0.5)], [], 10);
    expect(ordered.map((result) => [result.memory.id, result.replacedBy])).toEqual([
      ['t1', undefined],
      ['t2', undefined],
    ]);
  });
});
