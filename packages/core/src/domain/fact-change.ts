/**
 * "Same subject, changed value" between two memories, from their words alone (no model, no list
 * of change phrases): a statement is read as who it is about (first person, "my X", "Lena's X"),
 * its named things and values (numbers, dates, versions, capitalised names and places, addresses)
 * and its other content words (the relation). A newer memory updates an older one when it keeps
 * the older one's subject and relation — its content words, or a named thing they share — and
 * drops one of its values for another. Memories that merely share words (two people's cities,
 * two services' ports, an addition, two dated events of one kind) are left alone: measured by
 * the fact-change suite of `pnpm eval` (tooling/eval/fact-change-suite.mjs).
 */

/** The words that carry no subject, relation or value. */
const FUNCTION_WORDS = new Set(
  (
    'a an the and or but so of to in on at by for from with into onto as is are was were be been being am has have had do does ' +
    'did it its this that these those there here than then also too very just still not no yes all any some each every both ' +
    'which who whom whose what when where why how can could will would shall should may might must up out over under about ' +
    'after before since until again once per via he she they them their his her him hers theirs you your yours one'
  ).split(' '),
);
/** First-person words: who a statement is about when it names no one. */
const FIRST_SINGULAR = new Set(['i', 'me', 'my', 'mine', 'myself', "i'm", "i've", "i'd", "i'll"]);
const FIRST_PLURAL = new Set(['we', 'us', 'our', 'ours', 'ourselves', "we're", "we've"]);
/** Words that add to what is known rather than replace it ("I also speak German"). */
const ADDING_WORDS = new Set(['also', 'too', 'another', 'additionally']);
/** Parts of a date: a value, but never the named thing a statement is about. */
const DATE_WORDS = new Set(
  'january february march april may june july august september october november december monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays saturdays sundays'.split(
    ' ',
  ),
);

/** One statement as the rule reads it. */
export interface FactShape {
  /** `i`, `we` or `` (third person). */
  readonly person: string;
  /** What the statement says belongs to someone: "my rent" → `rent`, "Lena's sister" → `lena>sister`. */
  readonly possessed: ReadonlySet<string>;
  /** Numbers, dates, versions, addresses and capitalised names, normalised. */
  readonly values: ReadonlySet<string>;
  /** A capitalised first word, which may be a name or just the start of the sentence. */
  readonly opening: string | undefined;
  /** The other content words, stemmed. */
  readonly terms: ReadonlySet<string>;
  /** Content words (values, and terms stemmed) in the order written. */
  readonly sequence: readonly string[];
  /** Whether it says it adds to what is known ("also", "too"). */
  readonly adds: boolean;
  /** Terms that say something changed: the past tense ("slipped", "moved"), and "now". */
  readonly pastTense: ReadonlySet<string>;
}

interface Token {
  readonly raw: string;
  readonly lower: string;
  readonly first: boolean;
}

function tokens(content: string): Token[] {
  const found: Token[] = [];
  let sentenceStart = true;
  for (const match of content.matchAll(/[\p{L}\p{N}$+#@][\p{L}\p{N}'’.,:@$+#/-]*|[.!?;]/gu)) {
    const raw = match[0].replace(/[.,:'’-]+$/u, '');
    if (/^[.!?;]$/.test(raw)) {
      sentenceStart = true;
      continue;
    }
    if (raw.length === 0) continue;
    found.push({ raw, lower: raw.toLowerCase().replaceAll('’', "'"), first: sentenceStart });
    sentenceStart = false;
  }
  return found;
}

/** A light stem so "lives"/"live", "listens"/"listen", "moved"/"move" meet. */
export function stemWord(word: string): string {
  let stem = word.replace(/'s$/, '');
  if (stem.length > 4 && stem.endsWith('ing')) stem = stem.slice(0, -3);
  else if (stem.length > 4 && stem.endsWith('ed')) stem = stem.slice(0, -2);
  else if (stem.length > 3 && stem.endsWith('es') && !stem.endsWith('ses')) stem = stem.slice(0, -1);
  if (stem.length > 3 && stem.endsWith('s') && !stem.endsWith('ss')) stem = stem.slice(0, -1);
  if (stem.length > 3 && stem.endsWith('e')) stem = stem.slice(0, -1);
  return stem;
}

function isValue(token: Token): boolean {
  if (/\p{N}/u.test(token.raw) || token.raw.includes('@')) return true;
  return !token.first && /^\p{Lu}/u.test(token.raw) && token.lower !== 'i' && !FIRST_SINGULAR.has(token.lower);
}

/** How the rule reads one statement. */
export function factShape(content: string): FactShape {
  const words = tokens(content);
  let person = '';
  const possessed = new Set<string>();
  const values = new Set<string>();
  const terms = new Set<string>();
  let opening: string | undefined;
  const sequence: string[] = [];
  const pastTense = new Set<string>();
  let adds = false;
  words.forEach((token, i) => {
    if (ADDING_WORDS.has(token.lower)) adds = true;
    const next = words[i + 1];
    const nextContent = next && !FUNCTION_WORDS.has(next.lower) ? stemWord(next.lower) : undefined;
    // "US" and "ME" written in capitals are names (a region, a state), not pronouns.
    const acronym = token.raw.length > 1 && token.raw === token.raw.toUpperCase();
    if (!acronym && (FIRST_SINGULAR.has(token.lower) || FIRST_PLURAL.has(token.lower))) {
      if (person === '') person = FIRST_SINGULAR.has(token.lower) ? 'i' : 'we';
      if ((token.lower === 'my' || token.lower === 'our') && nextContent) possessed.add(nextContent);
      return;
    }
    if (token.lower.endsWith("'s") && nextContent) {
      const owner = token.lower.slice(0, -2);
      possessed.add(`${owner}>${nextContent}`);
      values.add(owner);
      sequence.push(owner);
      return;
    }
    if (FUNCTION_WORDS.has(token.lower)) return;
    if (i === 0 && /^\p{Lu}/u.test(token.raw)) opening = token.lower;
    const word = isValue(token) ? token.lower.replace(/[$,]/g, '') : stemWord(token.lower);
    (isValue(token) ? values : terms).add(word);
    // "is monitored", "are hosted": a present passive describes a state, not a change.
    const describes = ['is', 'are', 'am'].includes(words[i - 1]?.lower ?? '');
    // "was written", "were sold": a past passive says what happened, whatever the verb's form.
    const happenedTo = ['was', 'were'].includes(words[i - 1]?.lower ?? '');
    if (!isValue(token) && ((token.lower.endsWith('ed') && !describes) || happenedTo || token.lower === 'now')) pastTense.add(word);
    sequence.push(word);
  });
  return { person, possessed, values, opening, terms, sequence, adds, pastTense };
}

/** Why a newer memory is taken to update an older one. */
export type FactChangeReason = 'same-terms' | 'same-named-thing';

/** A detected change: the values the older memory said that the newer one replaced. */
export interface FactChange {
  readonly reason: FactChangeReason;
  /** The older memory's values the newer one no longer says (untrusted text: shown, never run). */
  readonly replacedValues: readonly string[];
}

const difference = <T>(a: ReadonlySet<T>, b: ReadonlySet<T>): T[] => [...a].filter((item) => !b.has(item));
const sameSet = <T>(a: ReadonlySet<T>, b: ReadonlySet<T>) => a.size === b.size && difference(a, b).length === 0;

/**
 * R-FACT-DETECT: whether `newer` states a changed value of the fact `older` states, or undefined
 * (either may be given as its factShape, read once when many pairs are compared).
 * Both must be about the same one: the same person (or one leaves it unsaid: "Switched to
 * 1Password"; "we" is the team acting on a thing, not a subject of its own) and the same "my X"
 * / "Lena's X". The newer must keep the older one's relation — every content word of the older,
 * or a named thing both name — and drop a value of the older while saying a new one, or name the
 * older value next to a new one with a changed relation word ("from VS Code to Neovim"). Two
 * statements with two or more values each and none in common are about different things (two
 * projects' deadlines, two runs on two days), never a change; "also" and "too" add, never replace.
 */
export function detectFactChange(older: string | FactShape, newer: string | FactShape): FactChange | undefined {
  const [a, b] = withNamedOpenings(
    typeof older === 'string' ? factShape(older) : older,
    typeof newer === 'string' ? factShape(newer) : newer,
  );
  // What happened stays what happened ("Atlas launched on 2 September 2024"): a later event does
  // not replace it, only a later statement of a state does.
  const olderIsEvent = [...a.pastTense].some((term) => term !== 'now');
  if (b.adds || olderIsEvent || !samePerson(a, b)) return undefined;
  const replacedValues = difference(a.values, b.values).filter((value) => !b.terms.has(stemWord(value)));
  const newValues = difference(b.values, a.values).filter((value) => !a.terms.has(stemWord(value)));
  const sharedValues = [...a.values].filter((value) => b.values.has(value));
  // Unless both say it of the same "my X" ("my landlord is Mr. Haddad" / "…my landlord is now
  // Greenfield Estates"), which names the subject for them.
  const sameOwnThing = a.possessed.size > 0 && sameSet(a.possessed, b.possessed);
  if (a.values.size >= 2 && b.values.size >= 2 && sharedValues.length === 0 && !sameOwnThing) return undefined;
  if (differentSubjects(a, b) || parallelAboutAnother(a, b)) return undefined;
  const wordsOfB = new Set([...b.terms, ...[...b.values].map(stemWord)]);
  const droppedTerms = [...a.terms].filter((term) => !wordsOfB.has(term));
  const addedTerms = difference(b.terms, a.terms);
  const termsKept = a.terms.size > 0 && droppedTerms.length === 0 && samePossessions(a, b);
  // A named thing both name anchors the subject ("the Civic", "Lena"); a month or a weekday never does.
  // Through a named thing alone, the newer must also say something happened to it (a verb in the
  // past tense the older did not use, "relocated", "switched", "handed", or "now"): "Atlas is monitored with
  // X" and "pages for Atlas go to Dana" name one project and say two different things of it.
  // A speaker restating their own named thing ("I drive a Civic" / "I sold the Civic and bought a
  // Tesla") says what happened to it in the same breath.
  const happened = [...b.pastTense].some((term) => !a.terms.has(term)) || (a.person !== '' && a.person === b.person);
  const namedShared =
    happened &&
    compatiblePossessions(a, b) &&
    (sharedValues.some((value) => !/^\p{N}/u.test(value) && !DATE_WORDS.has(value)) ||
      (a.opening !== undefined && a.opening === b.opening));
  if (newValues.length > 0 && replacedValues.length > 0 && likeForLike(replacedValues, newValues)) {
    if (termsKept) return { reason: 'same-terms', replacedValues };
    if (namedShared && droppedTerms.length <= 1) return { reason: 'same-named-thing', replacedValues };
    // Most of the older's words kept, one reworded, and the newer says it changed ("the grant
    // proposal is due on 15 May" / "the grant proposal deadline moved to 29 May").
    const keptTerms = a.terms.size - droppedTerms.length;
    if (happened && droppedTerms.length === 1 && keptTerms >= 2 && samePossessions(a, b)) return { reason: 'same-terms', replacedValues };
    return undefined;
  }
  // "from A to B": the older value is still named, next to a new one, and the relation words changed.
  if (newValues.length > 0 && replacedValues.length === 0 && namedShared && (droppedTerms.length > 0 || addedTerms.length > 0)) {
    const replaced = sharedValues.filter((value) => !DATE_WORDS.has(value) && !/^\p{N}/u.test(value));
    if (replaced.length > 0) return { reason: 'same-named-thing', replacedValues: replaced };
  }
  // Without values ("I'm vegetarian" → "I went vegan"; "Tomás is on the payments team" → "Tomás
  // transferred to the search team"): one content word of the older is replaced and the rest kept,
  // by the same person, possessed thing or named subject.
  const anchored = a.person !== '' || a.possessed.size > 0 || (a.opening !== undefined && a.opening === b.opening);
  if (replacedValues.length === 0 && newValues.length === 0 && anchored && samePossessions(a, b)) {
    if (droppedTerms.length === 1 && a.terms.size >= 2 && addedTerms.length > 0)
      return { reason: 'same-terms', replacedValues: droppedTerms };
  }
  return undefined;
}

/**
 * For a named thing both name: the same possessions when both say some, and no one else's thing
 * in the newer ("Lena lives in Munich" / "Lena's sister lives in Vienna" are two people).
 */
function compatiblePossessions(a: FactShape, b: FactShape): boolean {
  if (a.possessed.size > 0 && b.possessed.size > 0) return sameSet(a.possessed, b.possessed);
  return a.possessed.size > 0 || [...b.possessed].every((item) => !item.includes('>'));
}

/**
 * A change swaps a value for one of its kind: a name for a name, a number for a number, a date
 * for a date. A dated event naming a project ("On 9 December Atlas crossed…") does not replace
 * what the project is monitored with.
 */
function likeForLike(replaced: readonly string[], added: readonly string[]): boolean {
  const kind = (value: string) => (DATE_WORDS.has(value) ? 'date' : /\p{N}/u.test(value) ? 'number' : 'name');
  const kinds = new Set(replaced.map(kind));
  return added.some((value) => kinds.has(kind(value)));
}

/**
 * "I" and "I"; "we" (the team acting on a thing: "we moved the office") and a statement about the
 * thing itself. A first-person statement and one that opens with someone's name ("Kim lives…")
 * are about two people.
 */
function samePerson(a: FactShape, b: FactShape): boolean {
  if (a.person === b.person) return true;
  const [said, unsaid] = a.person === '' ? [b, a] : [a, b];
  if (unsaid.person !== '') return false;
  return said.person === 'we' || unsaid.opening === undefined;
}

/**
 * A capitalised first word is a name when the other statement writes it capitalised mid-sentence
 * ("Kenji owns…" / "…passed from Kenji to Amara"): then it is a value in both.
 */
function withNamedOpenings(a: FactShape, b: FactShape): [FactShape, FactShape] {
  const promote = (shape: FactShape, other: FactShape): FactShape => {
    if (shape.opening === undefined || !other.values.has(shape.opening)) return shape;
    const terms = new Set(shape.terms);
    terms.delete(stemWord(shape.opening));
    return { ...shape, terms, values: new Set([...shape.values, shape.opening]) };
  };
  return [promote(a, b), promote(b, a)];
}

/**
 * Two statements of one template with a word and a value swapped ("Ada wrote the parser in Rust"
 * / "Ada wrote the CLI in Go"; "the Q3 marketing budget…" / "the Q3 hiring budget…") say the
 * same thing of two different things. A word swapped for a past tense ("is planned" / "slipped")
 * or for a value is a reworded relation, not another thing.
 */
function parallelAboutAnother(a: FactShape, b: FactShape): boolean {
  if (a.sequence.length !== b.sequence.length) return false;
  const differing = a.sequence.map((word, i) => [word, b.sequence[i] ?? ''] as const).filter(([x, y]) => x !== y);
  const named = (value: string, shape: FactShape) => shape.values.has(value) && !DATE_WORDS.has(value) && !/\p{N}/u.test(value);
  return (
    differing.length >= 2 &&
    differing.some(([x, y]) => (a.terms.has(x) && b.terms.has(y) && !b.pastTense.has(y)) || (named(x, a) && named(y, b)))
  );
}

/**
 * "My rent" and "my rent", or "our blog" and "the blog": what one statement says belongs to
 * someone, the other names too (a possessed noun without a possessor counts). "My wife drives…"
 * and "I drive…" are about two people.
 */
function samePossessions(a: FactShape, b: FactShape): boolean {
  if (a.possessed.size > 0 && b.possessed.size > 0) return sameSet(a.possessed, b.possessed);
  const [owned, other] = a.possessed.size > 0 ? [a, b] : [b, a];
  return [...owned.possessed].every((item) => other.terms.has(item.slice(item.indexOf('>') + 1)));
}

/**
 * The words before the first word both statements share are who or what each is about ("the
 * API runs…" / "the worker runs…"): when both have some and none in common, two subjects.
 */
function differentSubjects(a: FactShape, b: FactShape): boolean {
  const shared = new Set(a.sequence.filter((word) => b.sequence.includes(word)));
  const before = (sequence: readonly string[]) => {
    const first = sequence.findIndex((word) => shared.has(word));
    return sequence.slice(0, first < 0 ? sequence.length : first);
  };
  const subjectA = before(a.sequence);
  const subjectB = new Set(before(b.sequence));
  return subjectA.length > 0 && subjectB.size > 0 && !subjectA.some((word) => subjectB.has(word)) && shared.size > 0 && a.person === '';
}
