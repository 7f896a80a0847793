import { describe, expect, it } from 'vitest';
import { matchingPassage, PASSAGES } from '../src/domain/matching-passage.js';
import { verifies } from './requirements.js';

// A long answer as an assistant writes one: paragraphs, a list, one part about what was asked.
const filler = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Point ${i + 1} about ${topic} is worth keeping in mind when you plan the week.`).join(' ');
const ANSWER = [
  `Here are some ideas for your trip. ${filler('packing', 6)}`,
  '**Music:**\n* Red Rocks Amphitheatre hosts concerts most summer evenings.\n* The Ogden Theatre has smaller shows.',
  `**Food:** ${filler('restaurants', 6)}`,
  `Finally, ${filler('weather', 5)}`,
].join('\n\n');

const unwrap = (text: string) => text.replace(/^…/, '').replace(/…$/, '');

describe('matchingPassage', () => {
  it(verifies('R-RECALL-PASSAGE', 'a memory up to the threshold is shown whole'), () => {
    expect(matchingPassage('I live in Berlin.', 'where do I live')).toBeUndefined();
    expect(matchingPassage('x'.repeat(PASSAGES.wholeUpTo), 'x')).toBeUndefined();
  });

  it(verifies('R-RECALL-PASSAGE', 'shows the sentences that hold the query words, with offsets into the content and … where cut'), () => {
    expect(ANSWER.length).toBeGreaterThan(PASSAGES.wholeUpTo);
    const passage = matchingPassage(ANSWER, 'which concerts at Red Rocks did you suggest?');
    expect(passage).toBeDefined();
    if (!passage) return;
    expect(passage.text).toContain('Red Rocks Amphitheatre hosts concerts');
    expect(passage.text.startsWith('…')).toBe(true);
    expect(passage.text.endsWith('…')).toBe(true);
    expect(unwrap(passage.text)).toBe(ANSWER.slice(passage.start, passage.end));
    expect(passage.length).toBe(ANSWER.length);
    expect(passage.end - passage.start).toBeLessThanOrEqual(PASSAGES.maxChars);
    // Whole sentences or lines: the passage starts where one starts.
    expect(['\n', ' '].includes(ANSWER[passage.start - 1] ?? '\n')).toBe(true);
  });

  it(verifies('R-RECALL-PASSAGE', 'a word the whole memory repeats weighs less than one it says once'), () => {
    // "plan" is in nearly every sentence; "restaurants" only in the food paragraph.
    const passage = matchingPassage(ANSWER, 'plan restaurants');
    expect(passage?.text).toContain('about restaurants');
    expect(passage?.text).not.toContain('about packing');
  });

  it(verifies('R-RECALL-PASSAGE', 'words meet lightly stemmed, and question words do not count'), () => {
    const passage = matchingPassage(ANSWER, 'What concert would you recommend?');
    expect(passage?.text).toContain('hosts concerts');
    const stories = `${'Nothing to see here. '.repeat(60)}She tells bedtime stories every night. ${'Nothing to see here. '.repeat(20)}`;
    expect(matchingPassage(stories, "what's the story?")?.text).toContain('bedtime stories');
  });

  it(verifies('R-RECALL-PASSAGE', 'a memory that matches none of the words shows its beginning'), () => {
    const passage = matchingPassage(ANSWER, 'submarine');
    expect(passage?.start).toBe(0);
    expect(passage?.text.startsWith('Here are some ideas')).toBe(true);
    expect(passage?.text.endsWith('…')).toBe(true);
  });

  it(verifies('R-RECALL-PASSAGE', 'one sentence longer than a passage is cut around its first matching word'), () => {
    const words = Array.from({ length: 400 }, (_, i) => (i === 300 ? 'lighthouse' : `w${i}`));
    const content = words.join(' ');
    const passage = matchingPassage(content, 'lighthouse');
    expect(passage?.text).toContain('lighthouse');
    expect((passage?.end ?? 0) - (passage?.start ?? 0)).toBeLessThanOrEqual(PASSAGES.maxChars);
    expect(unwrap(passage?.text ?? '')).toBe(content.slice(passage?.start, passage?.end));
  });

  it(verifies('R-RECALL-PASSAGE', 'never splits a character made of two UTF-16 units'), () => {
    const content = `${'🙂'.repeat(700)} lighthouse ${'🙂'.repeat(700)}`;
    const passage = matchingPassage(content, 'lighthouse');
    expect(passage?.text).toContain('lighthouse');
    expect(passage?.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});
