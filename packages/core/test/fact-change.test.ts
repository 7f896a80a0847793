import { describe, expect, it } from 'vitest';
import { detectFactChange, factShape } from '../src/domain/fact-change.js';
import { detectChangedFacts } from '../src/domain/read-time-fact-changes.js';
import { readingOrder, replacementsAmong } from '../src/domain/replacement-order.js';
import type { MemoryRecord, RankedMemory } from '../src/index.js';
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
  ['The office is at 12 Baker Street', 'We moved the office to 48 Canal Road'],
  ['I take my coffee with oat milk', 'I no longer take oat milk; I drink my coffee black now'],
  ['Jules is the on-call lead this quarter', 'Mei took over as on-call lead from Jules'],
  ['Kim lives at 5 Elm Court', "Kim's new address is 17 Harbour Lane"],
  ['The company logo is blue', 'The company logo was changed to green in the rebrand'],
  ['The default branch is master', 'We renamed the default branch from master to main'],
  ['Our sprints are two weeks long', 'We switched to one-week sprints'],
  ['I use LastPass as my password manager', 'Switched from LastPass to 1Password'],
  ['Zoe is my accountant', 'My accountant is now Harriet Cole; Zoe retired'],
  ['I prefer window seats on flights', 'I prefer aisle seats on flights these days'],
  ['The API runs on Node 18', 'We upgraded the API to Node 22'],
  ["Marco's phone number is +39 347 555 0192", 'Marco has a new phone number: +39 320 555 7781'],
  // A weekday a schedule moves to is not the date of an event.
  ['The team standup is at 9:30', 'The team standup moved to 10:00 starting Monday'],
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
  // Another subject named against the older's ("the staging cluster", "the API servers", "the London office").
  ['The cluster has 12 nodes', 'The staging cluster grew to 20 nodes'],
  ['The API runs on Node 18', 'The API servers run in us-east-1'],
  ['The office is at 12 Baker Street', 'Chen works from the London office'],
  // Another person: someone's relative, someone the older names, a title that is not a name.
  ['Lena lives in Munich', "Lena's brother moved to Vienna"],
  ['My dentist is Dr. Okafor', 'My GP is now Dr. Lindqvist'],
  ['I drive a Honda Civic', 'My wife sold her Tesla'],
  ['Priya supports Omar and believes in him', "Omar thanked Priya for Priya's support"],
  // Two things differ (which release, and when), or the newer is a record of what happened.
  ['Release 2.3 is planned for March', 'Release 2.4 slipped to May'],
  ['The invoice for March was 1,200 euros', 'The invoice for April was 1,350 euros'],
  // A verb of the speaker's with another value is news, not a change, unless time is said to have passed.
  ['I use VS Code for everything', 'I use LastPass as my password manager'],
  ['I am allergic to penicillin', 'I am allergic to cats'],
  // The same name inside another one ("the Leeds 10K"), and a statement that says mostly other things.
  ['My partner and I live in a flat in Leeds', 'I dropped the Leeds 10K and signed up for the Bath Half Marathon'],
  ['Sam has been married for 5 years', 'Sam went camping with the family in the hills last week and roasted marshmallows by the lake'],
  ['Ines is working on her studies', 'Ines got accepted into an exchange programme in Ireland'],
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
    expect(detectFactChange('The office is at 12 Baker Street', 'We moved the office to 48 Canal Road')?.replacedValues).toEqual([
      '12',
      'baker',
      'street',
    ]);
    expect(detectFactChange('I use VS Code for everything', 'I switched from VS Code to Neovim')).toMatchObject({
      reason: 'named-thing-moved',
      replacedValues: ['vs', 'code'],
    });
    expect(detectFactChange('I take my coffee with oat milk', 'I no longer take oat milk; I drink my coffee black now')?.reason).toBe(
      'denied',
    );
  });

  it(verifies('R-FACT-DETECT', 'a newer statement is read once and compared with many (the same answer from a shape as from text)'), () => {
    const newer = factShape('We moved the office to 48 Canal Road');
    expect(detectFactChange(factShape('The office is at 12 Baker Street'), newer)).toEqual(
      detectFactChange('The office is at 12 Baker Street', 'We moved the office to 48 Canal Road'),
    );
    expect(detectFactChange(factShape('Our warehouse is at 9 Dock Lane'), newer)).toBeUndefined();
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
  fused: score,
  adjustments: [],
  vectorRank: undefined,
  lexicalRank: 1,
  similarity: undefined,
});

/** Recall's reading order over ranked hits and the replacements read for them (reading-order.ts, without the reads). */
function orderReplacementsFirst(hits: readonly RankedMemory[], fetched: readonly MemoryRecord[], limit: number) {
  const live = new Map([...fetched, ...hits.map((hit) => hit.memory)].map((record) => [record.id, record]));
  return readingOrder(hits, replacementsAmong(live, new Map(), detectChangedFacts(hits)), live).slice(0, limit);
}

describe('the reading order of recall hits', () => {
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
