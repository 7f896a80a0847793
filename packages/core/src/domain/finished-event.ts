/**
 * R-FACT-DONE: a thing told as going on ("I'm training for the Boston marathon", "We're renovating
 * the kitchen") is changed by a later statement that tells it as done ("I ran the Boston marathon
 * last week", "The kitchen renovation finished in May"): the newer is told in the past, and says
 * the same thing — a name both say, or two of the older's words. A past event that shares one word
 * ("I ran 20 miles on Sunday") is another thing; a statement about someone of the speaker's is
 * about them (topic-change.ts).
 */
import { sameWord } from './fact-alignment.js';
import type { FactShape } from './fact-shape.js';
import { aboutSomeoneElse } from './topic-change.js';

/** The older's words the newer tells as done, or undefined when it does not. */
export function finishedEvent(a: FactShape, b: FactShape): readonly string[] | undefined {
  if (!a.ongoing || a.told || !b.told || b.ongoing || b.adds || b.negated || aboutSomeoneElse(a, b)) return undefined;
  // "I" and "I", "we" and "we" or the thing we do ("We're renovating the kitchen" / "The kitchen renovation…").
  const speakers = a.person === b.person || (a.person === 'we' && b.person === '');
  if (!speakers) return undefined;
  // The one it is about ("Ines is working…" / "Ines got accepted…") is not the thing that ended.
  const subject = a.person === '' ? a.tokens[0] : undefined;
  const shared = a.tokens.filter((token) => token !== subject && !token.past && b.tokens.some((other) => sameWord(token, other)));
  const sameThing = shared.some((token) => token.kind === 'name') || shared.filter((token) => token.kind === 'word').length >= 2;
  return sameThing ? [...new Set(shared.map((token) => token.word))] : undefined;
}
