import { describe, expect, it } from 'vitest';
import { detectFactChange } from '../src/domain/fact-change.js';
import { relatedText } from '../src/domain/fact-topics.js';
import { MAX_RELATED, relatedMemories } from '../src/domain/related-memories.js';
import type { MemoryRecord } from '../src/index.js';
import { verifies } from './requirements.js';

const memory = (id: string, content: string): MemoryRecord =>
  ({
    id,
    content,
    createdAt: new Date('2026-03-02T09:00:00Z'),
    replacedBy: null,
    supersededBy: null,
    metadata: {},
  }) as unknown as MemoryRecord;

const relatedTo = (older: string, newer: string) =>
  relatedMemories(newer, { changes: [], contradictions: [] }, [memory('old', older)]).map((entry) => entry.reason);

/** [older, newer, the reason a write gives]: changes the word rules cannot decide, listed for the agent. */
const LISTED: readonly (readonly [string, string, string])[] = [
  ['My car is a Golf', 'I bought a Tesla', 'same owner, a new one acquired'],
  ["I'm training for the Boston marathon", 'I ran the Boston marathon last week', 'ongoing, now told as done'],
  ['My favourite drink is coffee', 'These days I only drink tea', 'same topic, different value'],
  ['I am a nurse', 'I retrained as a software developer', 'same topic, different value'],
  ['Priya is pregnant', 'Priya had her baby, a girl called Asha', 'same subject, said as changed'],
  ['I weigh 82 kg', "I'm down to 76 kg", 'same subject, another value'],
  ['My mobile carrier is Vodafone', 'I ported my number from Vodafone to Three', 'same subject, said as changed'],
  ['We store backups in S3', 'Backups now go to Backblaze B2 instead of S3', 'same subject, said as changed'],
];

/** [older, newer]: about someone else, or nothing in common: not listed. */
const NOT_LISTED: readonly (readonly [string, string])[] = [
  ['I live in Paris', 'My parents moved to Lyon'],
  ['I drive a Golf', 'My son bought a Tesla'],
  ['My sister lives in Rome', 'My cousin moved to Milan'],
  ['Alice lives in Paris', 'Bob lives in Berlin'],
  ['The auth service listens on port 8080', 'I bought a Tesla'],
];

describe('related memories (R-FACT-RELATED)', () => {
  it.each(LISTED)(verifies('R-FACT-RELATED', '"%s" is related to "%s" (%s)'), (older, newer, reason) => {
    expect(relatedTo(older, newer)).toEqual([reason]);
  });

  it.each(NOT_LISTED)(verifies('R-FACT-RELATED', '"%s" is not related to "%s"'), (older, newer) => {
    expect(relatedTo(older, newer)).toEqual([]);
  });

  it(verifies('R-FACT-RELATED', "lists the rules' findings first, each memory once, at most MAX_RELATED"), () => {
    const changed = memory('changed', 'I live in Paris');
    const candidates = [changed, ...Array.from({ length: 8 }, (_, i) => memory(`m${i}`, `I used to live in town ${i + 2}`))];
    const related = relatedMemories('I moved to Berlin', { changes: [changed], contradictions: [] }, candidates);
    expect(related).toHaveLength(MAX_RELATED);
    expect(related[0]).toEqual({ memory: changed, reason: 'changed fact' });
    expect(new Set(related.map((entry) => entry.memory.id)).size).toBe(MAX_RELATED);
  });

  it(verifies('R-FACT-RELATED', "a write's lexical lookup carries the words of the topics it names"), () => {
    expect(relatedText('I moved to Berlin')).toContain('live');
    expect(relatedText('I joined Globex')).toContain('work');
    expect(relatedText('I bought a Tesla')).toContain('car');
    expect(relatedText('The invoice was paid')).toBe('The invoice was paid');
  });
});

/** [older, newer]: a change said with another verb, marked at write time. */
const TOPIC_CHANGES: readonly (readonly [string, string, string])[] = [
  ['I live in Paris', 'I moved to Berlin', 'paris'],
  ['I work at Acme', 'I joined Globex', 'acme'],
  ['I rent a flat in Manchester', 'I relocated to Bristol in April', 'manchester'],
  ['Marta works for Deloitte', 'Marta was hired by KPMG', 'deloitte'],
  ['My boyfriend is called Liam', 'I started dating Noah', 'liam'],
];

/** [older, newer]: look-alikes of those that are not changes. */
const TOPIC_LOOK_ALIKES: readonly (readonly [string, string])[] = [
  ['I live in Paris', 'I flew to Berlin for a conference last week'],
  ['I live in Paris', "I'm spending the weekend in Berlin"],
  ['I live in Paris', 'My friend Omar lives in Berlin'],
  ['I live in Paris', 'My parents moved to Lyon'],
  ['I work at Acme', 'I joined the Acme running club'],
  ['I work at Acme', 'I visited Globex headquarters for a meeting'],
  ['My sister lives in Rome', 'My cousin moved to Milan'],
  ['Our office is in Berlin', 'Our competitor moved its office to Munich'],
  ['I work at Shopify', 'My brother joined Stripe'],
];

describe('a change said with another verb (R-FACT-TOPIC)', () => {
  it.each(TOPIC_CHANGES)(verifies('R-FACT-TOPIC', '"%s" is changed by "%s"'), (older, newer, replaced) => {
    expect(detectFactChange(older, newer)).toEqual({ reason: 'changed-value', replacedValues: [replaced] });
  });

  it(verifies('R-FACT-TOPIC', 'a visit, a second one, an addition or the move of someone of theirs is not a change'), () => {
    const marked = TOPIC_LOOK_ALIKES.filter(([older, newer]) => detectFactChange(older, newer) !== undefined);
    expect(marked).toEqual([]);
  });
});

describe('a thing going on, told as done (R-FACT-DONE)', () => {
  it(verifies('R-FACT-DONE', 'a later statement that tells the same thing as done changes it; one that shares a word does not'), () => {
    expect(detectFactChange("I'm training for the Boston marathon", 'I ran the Boston marathon last week')).toMatchObject({
      reason: 'finished',
    });
    expect(detectFactChange("We're renovating the kitchen", 'The kitchen renovation finished in May')).toMatchObject({
      reason: 'finished',
    });
    expect(detectFactChange("I'm training for the Boston marathon", 'I ran 20 miles on Sunday')).toBeUndefined();
    expect(detectFactChange("I'm learning Spanish", 'My son learned Spanish at school')).toBeUndefined();
    expect(detectFactChange('I am reading Dune', 'My book club switched to reading Piranesi')).toBeUndefined();
  });
});
