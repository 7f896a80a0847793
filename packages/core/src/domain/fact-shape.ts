/**
 * How the changed-fact rule (fact-change.ts) reads one statement, from its words alone: who it is
 * about ("I", "we", "my X", "Lena's X"), its content words in order — each a value (a number, a
 * date, a capitalised name) or a plain word, stemmed — and the grammar that says time has passed
 * or a fact was denied: verbs in the past tense, adverbs of time ("now", "anymore", "instead",
 * "these days"), "new", and negation. These are closed classes of English grammar, not phrases
 * of particular facts.
 */

/** The words that carry no subject, relation or value. */
export const FUNCTION_WORDS = new Set(
  (
    'a an the and or but so of to in on at by for from with into onto as is are was were be been being am has have had do does ' +
    'did it its this that these those there here than then also too very just still all any some each every both ' +
    'which who whom whose what when where why how can could will would shall should might must up out over under about ' +
    'after before until again once per via through across between within without against toward towards among during he she they them their his her him hers theirs you your yours ' +
    'off got get gets getting everything something anything nothing everyone someone'
  ).split(' '),
);
/** First-person words: who a statement is about when it names no one. */
const FIRST_SINGULAR = new Set(['i', 'me', 'my', 'mine', 'myself', "i'm", "i've", "i'd", "i'll"]);
const FIRST_PLURAL = new Set(['we', 'us', 'our', 'ours', 'ourselves', "we're", "we've", "we'd", "we'll"]);
/** Words that add to what is known rather than replace it ("I also speak German"). */
const ADDING_WORDS = new Set(['also', 'too', 'another', 'additionally', 'both']);
/** Denial: "not", "no longer", "never", and the contracted forms. */
const NEGATIONS = new Set(['not', 'no', 'never', 'nor', 'none']);
/**
 * Adverbs (and the adjective "new") that place a statement in the present against an earlier
 * one. "since" and "as of" open a time from which the statement holds.
 */
const TIME_ADVERBS = new Set(['now', 'currently', 'nowadays', 'anymore', 'longer', 'instead', 'new', 'since', 'lately', 'today']);
/** Titles before a name ("Dr. Okafor"): part of the name's form, never a name both statements share. */
const TITLES = new Set(['mr', 'mrs', 'ms', 'mx', 'dr', 'prof', 'sir', 'dame']);
/** The months: with a number beside them, a day of the calendar. */
export const MONTHS = new Set('january february march april may june july august september october november december'.split(' '));
/** Parts of a date: a value, but never the named thing a statement is about. */
export const DATE_WORDS = new Set([
  ...MONTHS,
  ...'monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays saturdays sundays weekly daily monthly yearly annually day days week weeks month months year years hour hours minute minutes'.split(
    ' ',
  ),
]);
/** Counting words: values like the digits they stand for ("two bedrooms", "twice a week"). */
const NUMBER_WORDS = new Set(
  'zero one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred thousand million billion once twice half single double'.split(
    ' ',
  ),
);
/**
 * English verbs whose past tense does not end in -ed: the past tense is how a statement says
 * something happened ("I sold the Civic", "Mei took over"), and these are the ones a suffix misses.
 */
const IRREGULAR_PAST = new Set(
  (
    'became began bought brought built came caught chose cut did drew drove fell felt fought found flew forgot gave went grew ' +
    'had heard held hid kept knew laid led left lent lost made meant met paid quit ran rang rose said sat saw ' +
    'sent sold sang sank slept spent spoke stood stole stuck swam swore took taught tore told thought threw ' +
    'understood woke wore won wrote rewrote rebuilt overtook undertook withdrew'
  ).split(' '),
);
/** Past tenses that read as states, not events ("I'm allergic"; "tired", "married" stay the fact). */
const BEING_VERBS = new Set(['is', 'are', 'am', "'s", "'re", "'m", 'be', 'been', 'being']);

/** One content word of a statement. */
export interface FactToken {
  /** The word, lower-cased (values) or stemmed (plain words). */
  readonly word: string;
  /** The word as written, lower-cased ("jules", where `word` is the stem "jul"). */
  readonly lower?: string;
  readonly kind: 'number' | 'date' | 'name' | 'word';
  /** A verb in the past tense: something happened. */
  readonly past: boolean;
  /** Written with a capital (a sentence's first word may be a name the other statement confirms). */
  readonly capitalised?: boolean;
  /** Whether it is written right after the previous content word, with nothing between ("staging cluster"). */
  readonly joined?: boolean;
}

/** One statement as the rule reads it. */
export interface FactShape {
  /** `i`, `we` or `` (third person). */
  readonly person: string;
  /** What the statement says belongs to someone: "my rent" → `rent`, "Lena's sister" → `lena>sister`. */
  readonly possessed: ReadonlySet<string>;
  /** A capitalised first word, which may be a name or just the start of the sentence. */
  readonly opening: string | undefined;
  /** Content words in the order written (values and stemmed words; time adverbs and negations left out). */
  readonly tokens: readonly FactToken[];
  /** Whether it says it adds to what is known ("also", "too"). */
  readonly adds: boolean;
  /** Whether it denies something ("not", "no longer", "don't"). */
  readonly negated: boolean;
  /** Whether it places itself in the present against before ("now", "these days", "instead", "new"). */
  readonly timed: boolean;
  /** Whether it is told in the past ("was", "were", a past tense): a record of what happened, not a state. */
  readonly told: boolean;
  /** Whether it is told as going on ("I'm training for…", "We're renovating…"): a thing that ends. */
  readonly ongoing: boolean;
}

interface RawToken {
  readonly raw: string;
  readonly lower: string;
  readonly first: boolean;
  /** Followed by a comma or other pause. */
  readonly pause: boolean;
}

function rawTokens(content: string): RawToken[] {
  const found: RawToken[] = [];
  let sentenceStart = true;
  for (const match of content.matchAll(/[\p{L}\p{N}$+#@][\p{L}\p{N}'’.,:@$+#/-]*|[.!?;:]/gu)) {
    const raw = match[0].replace(/[.,:'’-]+$/u, '');
    const pause = raw.length < match[0].length && /[,:]/.test(match[0].slice(raw.length));
    if (/^[.!?;:]$/.test(raw)) {
      sentenceStart = true;
      const last = found.at(-1);
      if (last) found[found.length - 1] = { ...last, pause: true };
      continue;
    }
    if (raw.length === 0) continue;
    // "one-week sprints", "a 3-day week": the count and the unit are two words.
    const counted = /^([\p{L}\p{N}]+)-(\p{L}+)$/u.exec(raw);
    const parts =
      counted && (NUMBER_WORDS.has((counted[1] ?? '').toLowerCase()) || /^\p{N}+$/u.test(counted[1] ?? '')) ? counted.slice(1) : [raw];
    for (const part of parts) {
      found.push({
        raw: part,
        lower: part.toLowerCase().replaceAll('’', "'"),
        first: sentenceStart,
        pause: pause && part === parts.at(-1),
      });
      sentenceStart = false;
    }
  }
  return found;
}

/** A light stem so "lives"/"live", "listens"/"listen", "moved"/"move", "running"/"run" meet. */
export function stemWord(word: string): string {
  let stem = word.replace(/'s$/, '');
  if (stem.length > 4 && stem.endsWith('ing')) stem = stem.slice(0, -3);
  else if (stem.length > 4 && stem.endsWith('ied')) stem = `${stem.slice(0, -3)}y`;
  else if (stem.length > 4 && stem.endsWith('ed')) stem = stem.slice(0, -2);
  else if (stem.length > 3 && stem.endsWith('ies')) stem = `${stem.slice(0, -3)}y`;
  else if (stem.length > 3 && stem.endsWith('es') && !stem.endsWith('ses')) stem = stem.slice(0, -1);
  if (stem.length > 3 && stem.endsWith('s') && !stem.endsWith('ss')) stem = stem.slice(0, -1);
  // "runn" (running), "stopp" (stopped): the doubled consonant of the suffix's spelling.
  if (stem.length > 3 && /([^aeiouls])\1$/.test(stem)) stem = stem.slice(0, -1);
  if (stem.length > 3 && stem.endsWith('e')) stem = stem.slice(0, -1);
  return stem;
}

function kindOf(token: RawToken): FactToken['kind'] {
  if (/\p{N}/u.test(token.raw) || token.raw.includes('@')) return 'number';
  if (DATE_WORDS.has(token.lower)) return 'date';
  if (!token.first && /^\p{Lu}/u.test(token.raw)) return 'name';
  if (NUMBER_WORDS.has(token.lower)) return 'number';
  // "iPhone", "macOS": a capital inside a word names a thing.
  if (/^\p{Ll}+\p{Lu}/u.test(token.raw)) return 'name';
  // "US", "CI", "AWS": capitals throughout name a thing, even first.
  if (token.raw.length > 1 && token.raw === token.raw.toUpperCase() && /\p{Lu}/u.test(token.raw)) return 'name';
  return 'word';
}

/**
 * The longest text read as a statement of fact. A fact is said in a sentence or two; a longer
 * text is a document or an answer, whose words change without its facts changing — and the
 * comparison costs the product of two statements' lengths.
 */
export const MAX_FACT_CHARS = 600;

/**
 * Statements read lately, by text: a tenant's memories are a write's candidates again and again,
 * and reading one costs more than comparing two. Bounded; the oldest entry goes first.
 */
const READ_LATELY = new Map<string, FactShape>();
const READ_LATELY_LIMIT = 4096;

/** How the rule reads one statement (a text longer than MAX_FACT_CHARS reads as none). */
export function factShape(content: string): FactShape {
  const known = READ_LATELY.get(content);
  if (known) return known;
  const shape = readShape(content);
  if (READ_LATELY.size >= READ_LATELY_LIMIT) READ_LATELY.delete(READ_LATELY.keys().next().value as string);
  READ_LATELY.set(content, shape);
  return shape;
}

function readShape(content: string): FactShape {
  const words = content.length > MAX_FACT_CHARS ? [] : rawTokens(content);
  let person = '';
  const possessed = new Set<string>();
  const tokens: FactToken[] = [];
  let opening: string | undefined;
  let adds = false;
  let negated = false;
  let timed = false;
  let told = false;
  let ongoing = false;
  let lastContent = -2;
  words.forEach((token, i) => {
    if (token.lower === 'was' || token.lower === 'were') told = true;
    const previous = words[i - 1]?.lower ?? '';
    if (ADDING_WORDS.has(token.lower)) adds = true;
    if (NEGATIONS.has(token.lower) || token.lower.endsWith("n't")) {
      negated = true;
      return;
    }
    // "these days", "as of Monday": from then on.
    if (TIME_ADVERBS.has(token.lower) || (token.lower === 'days' && previous === 'these') || (token.lower === 'of' && previous === 'as')) {
      timed = true;
      return;
    }
    const nextContent = nextContentWord(words, i + 1);
    // "US" and "ME" written in capitals are names (a region, a state), not pronouns.
    const acronym = token.raw.length > 1 && token.raw === token.raw.toUpperCase();
    if (!acronym && (FIRST_SINGULAR.has(token.lower) || FIRST_PLURAL.has(token.lower))) {
      if (person === '') person = FIRST_SINGULAR.has(token.lower) ? 'i' : 'we';
      if ((token.lower === 'my' || token.lower === 'our') && nextContent) possessed.add(nextContent);
      return;
    }
    if (token.lower.endsWith("'s") && token.lower.length > 2 && nextContent) {
      const owner = token.lower.slice(0, -2);
      possessed.add(`${owner}>${nextContent}`);
      tokens.push({
        word: owner,
        lower: owner,
        kind: 'name',
        past: false,
        capitalised: /^\p{Lu}/u.test(token.raw),
        joined: lastContent === i - 1,
      });
      lastContent = i;
      return;
    }
    // "may" the verb, not "May" the month.
    if (FUNCTION_WORDS.has(token.lower) || TITLES.has(token.lower) || token.raw === 'may') return;
    if (i === 0 && /^\p{Lu}/u.test(token.raw)) opening = token.lower;
    const kind = kindOf(token);
    const word = kind === 'word' ? stemWord(token.lower) : token.lower.replace(/[$,]/g, '');
    const past = kind === 'word' && isPastTense(token.lower, previous);
    if (kind === 'word' && token.lower.length > 4 && token.lower.endsWith('ing') && isBeing(previous)) ongoing = true;
    if (past) told = true;
    const joined = lastContent === i - 1 && words[i - 1]?.pause === false;
    lastContent = i;
    tokens.push({ word, lower: token.lower.replace(/[$,]/g, ''), kind, past, capitalised: /^\p{Lu}/u.test(token.raw), joined });
  });
  return { person, possessed, opening, tokens, adds, negated, timed, told, ongoing };
}

/** The stem of the first content word from `start`, skipping time adverbs ("Kim's new address" → `address`). */
function nextContentWord(words: readonly RawToken[], start: number): string | undefined {
  const next = words.slice(start).find((word) => !TIME_ADVERBS.has(word.lower));
  return next && !FUNCTION_WORDS.has(next.lower) ? stemWord(next.lower) : undefined;
}

/** "is", "are", "am", "I'm", "we're": before a verb in -ing, the statement tells what is going on. */
const isBeing = (previous: string) => BEING_VERBS.has(previous) || /^(?:i'm|we're|they're|he's|she's|it's)$/.test(previous);

/**
 * A verb in the past tense: -ed ("moved"), or irregular ("sold"); after "was"/"were" any verb
 * form is ("was written"). After "is"/"are" an -ed word describes a state ("is hosted"), and so
 * does an adjective in -ed ("I'm allergic", "I'm tired" do not end in -ed; "married" after "got"
 * is an event, and counted).
 */
function isPastTense(lower: string, previous: string): boolean {
  if (previous === 'was' || previous === 'were') return true;
  if (BEING_VERBS.has(previous) || previous.endsWith("'s") || previous.endsWith("'m") || previous.endsWith("'re")) return false;
  return (lower.length > 4 && lower.endsWith('ed')) || IRREGULAR_PAST.has(lower);
}
