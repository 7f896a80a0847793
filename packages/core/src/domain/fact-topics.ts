/**
 * The topics of everyday personal facts — where one lives, works, what one drives, who one dates —
 * as closed classes of words, WordNet-style: the verbs that set or change the fact ("live",
 * "move", "relocate"; "work", "join", "hire", "quit") and the nouns that name it ("home",
 * "employer"). Two statements of one subject on one topic may be one fact said twice, the second
 * with another verb or another value ("I live in Paris" / "I moved to Berlin"): a write lists the
 * older among `related` (related-memories.ts) and finds it by these words (relatedText).
 */
import { type FactShape, factShape, stemWord } from './fact-shape.js';

/** Each topic's words, in their common forms (the lexical index of a store matches words as written, the rule stems them). */
const TOPIC_WORDS: Readonly<Record<string, string>> = {
  home: 'live lives living lived move moves moving moved relocate relocated relocating home house flat apartment address city town settled',
  work: 'work works working worked job employer company join joined joining hire hired quit resigned laid fired offer career retrained profession nurse teacher engineer developer',
  partner:
    'partner boyfriend girlfriend husband wife spouse fiance fiancee dating date dated married marry engaged divorced split broke seeing',
  vehicle: 'car cars drive drives driving drove vehicle',
  phone: 'phone phones mobile handset iphone android smartphone',
  diet: 'diet vegetarian vegan pescatarian meat eat eats eating ate keto',
  drink: 'drink drinks drinking drank coffee tea beer wine juice',
  sport: 'sport sports play plays playing played',
  fandom: 'support supports supporter fan fans',
  tracker: 'ticket tickets issue issues tracked tracker backlog',
  internet: 'broadband internet wifi fibre provider',
  study: 'thesis study studying studied degree course university school',
};

/** Verbs of getting a thing: a newer "I bought a Tesla" may replace an older "My car is a Golf". */
export const ACQUIRING_VERBS = new Set(
  'bought buy purchased picked ordered adopted leased traded upgraded replaced switched'.split(' ').map(stemWord),
);
/** What one acquires and keeps saying one has: the words a write that acquires something looks for. */
const OWNED_WORDS = 'car phone laptop bike have has own owns drive drives';

/**
 * The verbs that change a topic's fact, said in the past ("I moved to Berlin", "I joined Globex",
 * "I started dating Noah"): with a new value of the same subject, a change (topic-change.ts).
 */
export const CHANGING_VERBS: Readonly<Record<string, ReadonlySet<string>>> = {
  home: new Set('move moved relocate relocated'.split(' ').map(stemWord)),
  work: new Set('join joined hired quit resigned retrained'.split(' ').map(stemWord)),
  partner: new Set('dating married engaged'.split(' ').map(stemWord)),
};

/**
 * Words for people of one's own ("my son", "Lena's brother"): a statement about them is not about
 * the speaker. A partner is one of them, unless the partner is the topic ("My boyfriend is Liam").
 */
export const PEOPLE_WORDS = new Set(
  (
    'friend friends son daughter brother sister mum mom mother dad father parents parent wife husband partner boyfriend ' +
    'girlfriend cousin uncle aunt grandma grandpa grandmother grandfather colleague boss manager neighbour neighbor kids ' +
    'children child family niece nephew flatmate roommate client competitor'
  )
    .split(' ')
    .map(stemWord),
);

const TOPIC_OF_STEM: ReadonlyMap<string, readonly string[]> = (() => {
  const topics = new Map<string, string[]>();
  for (const [topic, words] of Object.entries(TOPIC_WORDS)) {
    for (const word of words.split(' ')) {
      const stem = stemWord(word);
      topics.set(stem, [...(topics.get(stem) ?? []), topic]);
    }
  }
  return topics;
})();

/** The topics a statement's words name. */
export function topicsOf(statement: string | FactShape): ReadonlySet<string> {
  const shape = typeof statement === 'string' ? factShape(statement) : statement;
  const topics = new Set<string>();
  for (const token of shape.tokens) {
    for (const topic of TOPIC_OF_STEM.get(stemWord(token.lower ?? token.word)) ?? []) topics.add(topic);
  }
  return topics;
}

/**
 * The text whose words find a write's lexical neighbours: its content, and the words of the
 * topics it names, so "I moved to Berlin" meets "I live in Paris" in the same bounded lookup.
 */
export function relatedText(content: string): string {
  const extra = [...topicsOf(content)].map((topic) => TOPIC_WORDS[topic]);
  if (factShape(content).tokens.some((token) => token.past && ACQUIRING_VERBS.has(token.word))) extra.push(OWNED_WORDS);
  return extra.length === 0 ? content : `${content}\n${extra.join(' ')}`;
}
