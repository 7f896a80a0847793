/**
 * R-FACT-TOPIC: a change said with another verb than the fact it changes ("I live in Paris" / "I
 * moved to Berlin"; "I work at Acme" / "I joined Globex"; "Marta works for Deloitte" / "Marta was
 * hired by KPMG"), which the word alignment of fact-change.ts cannot see: no word of the relation
 * is kept. Decided from closed classes of words (fact-topics.ts), and conservative, since it marks
 * the older memory: one subject (the same person, and no one of theirs — "my parents moved to
 * Lyon" is about them), a topic both name, a verb that changes that topic told in the past, and a
 * name the newer says that the older did not, where the older said one. A visit ("I flew to Berlin
 * for a conference"), a second one ("we adopted a second cat"), an addition ("also") are left alone.
 */

import { sameWord } from './fact-alignment.js';
import type { FactShape, FactToken } from './fact-shape.js';
import { CHANGING_VERBS, PEOPLE_WORDS, topicsOf } from './fact-topics.js';

/** The older's names the newer replaces, when the newer changes the older's fact on a topic both name; else undefined. */
export function topicChange(a: FactShape, b: FactShape): readonly string[] | undefined {
  if (b.adds || b.negated || !sameSpeakerOrName(a, b) || aboutSomeoneElse(a, b)) return undefined;
  const shared = [...topicsOf(b)].filter((topic) => topicsOf(a).has(topic));
  const changes = shared.some((topic) =>
    b.tokens.some((token) => CHANGING_VERBS[topic]?.has(token.word) && (token.past || b.tokens.some((other) => other.past))),
  );
  if (!changes) return undefined;
  const names = (shape: FactShape) =>
    shape.tokens.filter((token) => token.kind === 'name' && !(shape === a && token === a.tokens[0] && a.person === ''));
  const olderNames = names(a);
  const newNames = names(b).filter((token) => !a.tokens.some((other) => sameWord(token, other)));
  if (olderNames.length === 0 || newNames.length === 0) return undefined;
  // The older's value is gone from the newer: "I joined the Acme running club" keeps Acme.
  const replaced = olderNames.filter((token) => !b.tokens.some((other) => sameWord(token, other)));
  return replaced.length === 0 ? undefined : [...new Set(replaced.map((token: FactToken) => token.word))];
}

/** "I" and "I", "we" and "we", or a third person both open with ("Marta works…" / "Marta was hired…"). */
function sameSpeakerOrName(a: FactShape, b: FactShape): boolean {
  if (a.person !== b.person) return false;
  if (a.person !== '') return true;
  const [first, other] = [a.tokens[0], b.tokens[0]];
  return first?.kind === 'name' && other !== undefined && sameWord(first, other);
}

/**
 * Whether either statement is about someone of the speaker's ("my son", "Lena's brother") that the
 * other is not: a partner the topic names ("My boyfriend is called Liam") is the speaker's own fact.
 */
export function aboutSomeoneElse(a: FactShape, b: FactShape): boolean {
  const people = (shape: FactShape) =>
    [...shape.possessed].map((item) => item.slice(item.indexOf('>') + 1)).filter((word) => PEOPLE_WORDS.has(word));
  const [ofA, ofB] = [people(a), people(b)];
  const topics = new Set([...topicsOf(a)].filter((topic) => topicsOf(b).has(topic)));
  const theTopic = (word: string) => [...topicsOf(word)].some((topic) => topics.has(topic));
  return [...ofA.filter((word) => !ofB.includes(word)), ...ofB.filter((word) => !ofA.includes(word))].some((word) => !theTopic(word));
}
