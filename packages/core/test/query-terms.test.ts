import { describe, expect, it } from 'vitest';
import { rankingQueryText } from '../src/domain/query-terms.js';
import { verifies } from './requirements.js';

describe('ranking terms of a question', () => {
  it.each([
    ['What fields would Caroline be likely to pursue in her education?', 'fields Caroline to pursue in education?'],
    ['When did Melanie paint a sunrise?', 'Melanie paint a sunrise?'],
    ['What kind of car does he drive?', 'of car drive?'],
    ["What's the staging port?", 'the staging port?'],
    ["Why didn't they deploy on Friday?", 'deploy on Friday?'],
  ])(verifies('R-QUERY-NOISE', 'drops question words, auxiliaries, modals and pronouns: %s'), (question, expected) => {
    expect(rankingQueryText(question)).toBe(expected);
  });

  it(verifies('R-QUERY-NOISE', 'keeps names, numbers, months, hyphenated words and other scripts'), () => {
    expect(rankingQueryText('Who moved to Lisbon in May 2023?')).toBe('moved to Lisbon in May 2023?');
    expect(rankingQueryText('Which region is eu-west-1?')).toBe('region eu-west-1?');
    expect(rankingQueryText('東京のオフィスはどこ？')).toBe('東京のオフィスはどこ？');
    expect(rankingQueryText('Will Smith')).toBe('Smith');
  });

  it(verifies('R-QUERY-NOISE', 'returns a question made only of such words as it came'), () => {
    expect(rankingQueryText('What did you do?')).toBe('What did you do?');
    expect(rankingQueryText('?!')).toBe('?!');
  });
});
