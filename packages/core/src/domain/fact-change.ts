/**
 * "Same subject, changed value" between two memories, from their words alone (no model, no list
 * of change phrases). Each statement is read by factShape (fact-shape.ts) as who it is about and
 * its content words in order. The newer one's words are aligned with the older one's: what the
 * older said that the newer no longer says is what was replaced, and it must be one stretch of
 * the older statement (its value: "12 Baker Street", "Tom Becker", "blue") — two stretches are two
 * things that differ ("Alice lives in Paris" / "Bob lives in Berlin": the person and the city).
 * The subject must stay: the older's first word, or a name both say when the newer also says that
 * time has passed (a past tense, "now", "new", "these days"). Memories that merely share words —
 * two people's cities, two services' ports, an addition, two dated events of one kind — are left
 * alone: measured by the fact-change suite of `pnpm eval` (tooling/eval/fact-change-suite.mjs).
 */
import { align, isValue, sameWord } from './fact-alignment.js';
import { type FactShape, type FactToken, factShape, MONTHS } from './fact-shape.js';
import { finishedEvent } from './finished-event.js';
import { topicChange } from './topic-change.js';

export type { FactShape } from './fact-shape.js';
export { factShape } from './fact-shape.js';

/**
 * Why a newer memory is taken to update an older one: it says another value of the same thing
 * (`changed-value`), moves a named thing from one value to another (`named-thing-moved`), says
 * the same thing with another word (`reworded`), denies it (`denied`), or tells as done what was
 * going on (`finished`).
 */
export type FactChangeReason = 'changed-value' | 'named-thing-moved' | 'reworded' | 'denied' | 'finished';

/** A detected change: the values the older memory said that the newer one replaced. */
export interface FactChange {
  readonly reason: FactChangeReason;
  /** The older memory's words the newer one replaced (untrusted text: shown, never run). */
  readonly replacedValues: readonly string[];
}

/** A name or a plain word can be what a statement is about; a number or a date cannot. */
const canBeSubject = (token: FactToken) => token.kind === 'name' || token.kind === 'word';

/**
 * R-FACT-DETECT: whether `newer` states a changed value of the fact `older` states, or undefined
 * (either may be given as its factShape, read once when many pairs are compared). See the
 * module's comment for the rule; each branch below is one way a change is said.
 */
export function detectFactChange(older: string | FactShape, newer: string | FactShape): FactChange | undefined {
  const [a, b] = withConfirmedNames(
    typeof older === 'string' ? factShape(older) : older,
    typeof newer === 'string' ? factShape(newer) : newer,
  );
  if (b.adds || a.tokens.length === 0 || b.tokens.length === 0 || !samePerson(a, b)) return undefined;
  // What happened stays what happened ("Atlas launched on 2 September 2024", "the March invoice
  // was 1,200 euros"): a later event does not replace it, only a later statement of a state does.
  if (a.told && !a.timed) return undefined;
  // "I live in Paris" / "I moved to Berlin": a change said with another verb (topic-change.ts).
  const byTopic = topicChange(a, b);
  if (byTopic) return { reason: 'changed-value', replacedValues: byTopic };
  // "I'm training for the Boston marathon" / "I ran the Boston marathon" (finished-event.ts).
  const done = finishedEvent(a, b);
  if (done) return { reason: 'finished', replacedValues: done };
  // Nor does a dated event replace a state that has no date ("Harvest is monitored with Datadog" /
  // "On 30 March 2026 Harvest onboarded its hundredth farm"): it says what happened that day.
  // A day of a month ("30 March", "April 2"), not a weekday a schedule moves to ("starting Monday").
  if (b.told && !b.timed && hasCalendarDate(b) && !a.tokens.some((token) => token.kind === 'date')) return undefined;
  const alignment = align(a, b);
  const { kept, dropped, added, changed } = alignment;
  if (!compatibleOwners(a, b, dropped) || alignment.droppedStretches > 1) return undefined;
  // A change restates the fact; a newer statement that says mostly other things ("Melanie went
  // camping with her family in the mountains…" after "Melanie has been married for 5 years") is news.
  if (added.filter((token) => !isValue(token)).length > kept.length + 1) return undefined;
  // "The project uses Jest" / "We migrated the test suite from Jest to Vitest": the team names
  // itself where the older named its project, which is not a word of the fact dropped — when what
  // the team acts on is a thing the older names ("the test suite"; not "the docs" after "the blog").
  const actedOn = b.tokens.find((token) => !token.past);
  const teamSpeaks =
    b.person === 'we' &&
    a.person === '' &&
    dropped[0] === a.tokens[0] &&
    actedOn !== undefined &&
    kept.some((token) => sameWord(token, actedOn));
  const droppedWords = dropped.filter((token) => !isValue(token) && !(teamSpeaks && token === a.tokens[0]));
  const droppedValues = dropped.filter(isValue);
  const addedValues = added.filter(isValue);
  const subject = a.tokens.find(canBeSubject);
  // Said by "I" or "we", the first word is a verb ("I use…") unless it is one's own thing ("my
  // rent"): another value of a verb is news ("I use LastPass" after "I use VS Code") unless the
  // newer says that time has passed.
  const subjectKept = subject !== undefined && kept.includes(subject) && (a.person === '' || changed || a.possessed.has(subject.word));
  const namesKept = kept.filter((token) => token.kind === 'name' && !partOfAnotherName(token, a, b));
  // "The cluster has 12 nodes" / "The staging cluster grew to 20 nodes": a new word before the
  // subject makes it another one.
  const subjectIsAThing = a.person === '' || (subject !== undefined && a.possessed.has(subject.word));
  if (subject !== undefined && subjectIsAThing && qualifiedAnew(subject, b, a)) return undefined;
  // "We" and "we", "I" and "I", the newer saying that time has passed: the speaker anchors the subject.
  const speakerKept = a.person !== '' && a.person === b.person && changed && kept.length > 0;

  // "I no longer take oat milk": every word of the older, denied.
  if (b.negated && !a.negated && dropped.length === 0) return { reason: 'denied', replacedValues: words(a.tokens) };
  // "The office is at 12 Baker Street" / "We moved the office to 48 Canal Road": a value swapped
  // for one of its kind, the relation kept (or one word of it reworded, when the newer says so).
  if (droppedValues.length > 0 && likeForLike(droppedValues, addedValues) && droppedWords.length <= (changed ? 1 : 0)) {
    if (subjectKept || (namesKept.length > 0 && changed) || speakerKept)
      return { reason: 'changed-value', replacedValues: words(droppedValues) };
  }
  // "I use VS Code" / "I switched from VS Code to Neovim"; "Kenji owns billing" / "…passed from
  // Kenji to Amara": a named thing both say, a new value, and the newer says it changed.
  const subjectLost = a.person === '' && dropped[0] === a.tokens[0] && !teamSpeaks;
  // The name moved is not what both statements are about: "Tim is working on his studies" / "Tim
  // got accepted into a program in Ireland" says something new of Tim, it moves nothing from him.
  const movedNames = namesKept.filter((token) => !(token === a.tokens[0] && sameWord(token, b.tokens[0] as FactToken)));
  const namedValueAdded = addedValues.some((token) => token.kind === 'name' || (token.kind === 'number' && /\p{L}/u.test(token.word)));
  if (droppedValues.length === 0 && movedNames.length > 0 && changed && namedValueAdded && !subjectLost) {
    const nameIsTheValue = namesKept.some((token) => token !== a.tokens[0]) && added.every(isValue);
    if (droppedWords.length <= 1 || nameIsTheValue) return { reason: 'named-thing-moved', replacedValues: words(namesKept) };
  }
  if (droppedValues.length === 0 && addedValues.length === 0 && changed && subjectKept) {
    // "The company logo is blue" / "…was changed to green": one word swapped, the rest kept.
    const swap = dropped.length > 0 && dropped.length <= 2 && added.length > 0 && added.length <= dropped.length + 1;
    if (swap && kept.length >= Math.max(2, dropped.length + 1) && !opensWithAnother(a, b))
      return { reason: 'reworded', replacedValues: words(droppedWords) };
    // "The default branch is master" / "We renamed the default branch from master to main":
    // all of the older said again, and one new word for its value.
    if (dropped.length === 0 && added.length === 1 && kept.length >= 2)
      return { reason: 'reworded', replacedValues: words(a.tokens.slice(-1)) };
  }
  return undefined;
}

/**
 * Whether the newer puts a word of its own right against the older's subject — before it ("the
 * staging cluster", "the London office") or after it ("the API servers"): then it speaks of
 * another thing that has the subject's name in it.
 */
function qualifiedAnew(subject: FactToken, b: FactShape, a: FactShape): boolean {
  const at = b.tokens.findIndex((token) => sameWord(token, subject));
  if (at < 0) return false;
  // A word, a name or an identifier ("the Q4 budget", "the v2 API"); not a count or a date.
  const qualifies = (token: FactToken) =>
    token.kind === 'word' || token.kind === 'name' || (token.kind === 'number' && /\p{L}/u.test(token.word));
  const isNew = (token: FactToken | undefined) =>
    token !== undefined && qualifies(token) && !token.past && !a.tokens.some((other) => sameWord(other, token));
  const before = b.tokens[at]?.joined ? b.tokens[at - 1] : undefined;
  const after = b.tokens[at + 1]?.joined ? b.tokens[at + 1] : undefined;
  return isNew(before) || isNew(after);
}

/**
 * "Leeds" in "a flat in Leeds" and in "the Leeds 10K" name two things: a name the newer writes
 * against a value the older does not have is part of another name.
 */
function partOfAnotherName(name: FactToken, a: FactShape, b: FactShape): boolean {
  const at = b.tokens.findIndex((token) => sameWord(token, name));
  const inA = (token: FactToken | undefined) => token !== undefined && a.tokens.some((other) => sameWord(other, token));
  const before = b.tokens[at]?.joined ? b.tokens[at - 1] : undefined;
  const after = b.tokens[at + 1]?.joined ? b.tokens[at + 1] : undefined;
  return [before, after].some((token) => token !== undefined && isValue(token) && !inA(token));
}

/** "Gina supports Jon" / "Jon expressed gratitude for Gina's support": the newer is about another one the older names. */
function opensWithAnother(a: FactShape, b: FactShape): boolean {
  const opening = b.tokens[0];
  if (a.person !== '' || opening === undefined || opening.kind !== 'name') return false;
  return !sameWord(opening, a.tokens[0] as FactToken) && a.tokens.some((token) => sameWord(token, opening));
}

/** A month written next to a number: a day of the calendar. */
function hasCalendarDate(shape: FactShape): boolean {
  return shape.tokens.some((token, i) => {
    if (!MONTHS.has(token.word)) return false;
    const next = shape.tokens[i + 1];
    return (token.joined === true && shape.tokens[i - 1]?.kind === 'number') || (next?.joined === true && next.kind === 'number');
  });
}

const words = (tokens: readonly FactToken[]) => [...new Set(tokens.map((token) => token.word))];

/** A change swaps a value for one of its kind: a name for a name, a number for a number, a date for a date. */
function likeForLike(replaced: readonly FactToken[], added: readonly FactToken[]): boolean {
  const kinds = new Set(replaced.map((token) => token.kind));
  return added.some((token) => kinds.has(token.kind));
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
  // "Switched from LastPass to 1Password": an opening verb names no one.
  const first = unsaid.tokens[0];
  const opensWithSomeone = unsaid.opening !== undefined && first !== undefined && !first.past && canBeSubject(first);
  return said.person === 'we' || !opensWithSomeone;
}

/**
 * "Lena's sister" is another person than Lena, "my wife" another than me: what one statement
 * says belongs to someone ("Priya's manager"), the other must say of the same owner, or name both
 * the owner and the thing ("The Acme contract" / "Acme's contract"), or say the older's relation
 * in other words ("Kim lives at…" / "Kim's new address is…"). A newer statement about "my X"
 * ("My wife drives a Tesla") is about X unless the older names X or a thing both name.
 */
function compatibleOwners(a: FactShape, b: FactShape, dropped: readonly FactToken[]): boolean {
  const owned = (shape: FactShape) => [...shape.possessed].filter((item) => item.includes('>'));
  const [ownedA, ownedB] = [owned(a), owned(b)];
  if (ownedA.length > 0 && ownedB.length > 0) return ownedA.some((item) => ownedB.includes(item));
  const names = (part: string, shape: FactShape) =>
    shape.tokens.some((token) => sameWord(token, { word: part, kind: 'word', past: false }));
  // "Kim lives at…" / "Kim's new address is…" (a state said in other words), not "Lena's brother moved…".
  const relationReworded = dropped.some((token) => !isValue(token)) && !b.told;
  if (ownedB.length > 0) {
    return ownedB.every((item) => {
      const [owner = '', thing = ''] = item.split('>');
      return names(owner, a) && (names(thing, a) || relationReworded);
    });
  }
  // The newer may leave the older's "whose" unsaid ("Priya's manager is Tom" / "Priya now reports to…").
  if (!ownedA.every((item) => names(item.slice(0, item.indexOf('>')), b))) return false;
  const first = b.tokens[0];
  const aboutOwnThing = first !== undefined && b.possessed.has(first.word);
  const shareName = a.tokens.some((token) => token.kind === 'name' && b.tokens.some((other) => other.word === token.word));
  return !aboutOwnThing || names(first.word, a) || shareName;
}

/**
 * A capitalised word at the start of a sentence is a name when the other statement writes it
 * capitalised too ("Kenji owns…" / "…passed from Kenji to Amara"; "Tomás is…" / "Tomás
 * transferred…"; "…; Zoe retired"): then it is a name in both.
 */
function withConfirmedNames(a: FactShape, b: FactShape): [FactShape, FactShape] {
  const capitalised = (shape: FactShape) =>
    new Set(shape.tokens.filter((token) => token.capitalised && !token.past).map((token) => token.lower));
  const promote = (shape: FactShape, other: FactShape): FactShape => {
    const confirmed = capitalised(other);
    const isConfirmed = (token: FactToken) =>
      token.kind === 'word' && token.capitalised === true && !token.past && confirmed.has(token.lower);
    if (!shape.tokens.some(isConfirmed)) return shape;
    const tokens = shape.tokens.map((token) =>
      isConfirmed(token) ? { ...token, kind: 'name' as const, word: token.lower ?? token.word } : token,
    );
    return { ...shape, tokens };
  };
  return [promote(a, b), promote(b, a)];
}
