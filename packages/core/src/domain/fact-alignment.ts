/**
 * How two statements' words line up (fact-change.ts reads the result): which of the older's words
 * the newer keeps, which it drops and in how many stretches, what it adds, and whether it says
 * that time has passed.
 */
import type { FactShape, FactToken } from './fact-shape.js';

/** One statement's words against the other's. */
export interface Alignment {
  /** The older's words the newer also says. */
  readonly kept: readonly FactToken[];
  /** The older's words the newer no longer says, in order. */
  readonly dropped: readonly FactToken[];
  /** How many separate stretches of the older statement were dropped. */
  readonly droppedStretches: number;
  /** The newer's words the older did not say, but for its verbs of change. */
  readonly added: readonly FactToken[];
  /** Whether the newer says time has passed or denies: a past tense the older did not use, "now", "new", negation. */
  readonly changed: boolean;
}

export const isValue = (token: FactToken) => token.kind !== 'word';

/**
 * Two words are one when they are equal, or one plain word begins the other and is long enough
 * to mean it ("renew" / "renewal", "deploy" / "deployment").
 */
export function sameWord(x: FactToken, y: FactToken): boolean {
  if (x.word === y.word || (x.lower !== undefined && x.lower === y.lower)) return true;
  if (x.kind !== 'word' || y.kind !== 'word') return false;
  const [shorter, longer] = x.word.length <= y.word.length ? [x.word, y.word] : [y.word, x.word];
  return shorter.length >= 4 && longer.startsWith(shorter);
}

/** The older's words against the newer's. */
export function align(a: FactShape, b: FactShape): Alignment {
  const inB = (token: FactToken) => b.tokens.some((other) => sameWord(token, other));
  const inA = (token: FactToken) => a.tokens.some((other) => sameWord(token, other));
  // Numbers side by side are one number ("+39 347 555 0192"): a part of it changed is all of it changed.
  const droppedAt = a.tokens.map((token) => !inB(token));
  a.tokens.forEach((token, i) => {
    if (token.kind !== 'number' || droppedAt[i]) return;
    const run = numberRunAround(a.tokens, i);
    if (run.some((j) => droppedAt[j])) droppedAt[i] = true;
  });
  const kept = a.tokens.filter((_, i) => !droppedAt[i]);
  const dropped = a.tokens.filter((_, i) => droppedAt[i]);
  const verbsOfChange = b.tokens.filter((token) => token.past && !inA(token));
  const changed = verbsOfChange.length > 0 || (b.timed && !a.timed) || (b.negated && !a.negated);
  const stretches: number[][] = [];
  droppedAt.forEach((isDropped, i) => {
    if (!isDropped) return;
    if (i > 0 && droppedAt[i - 1]) stretches[stretches.length - 1]?.push(i);
    else stretches.push([i]);
  });
  // When the newer says it changed, one word of the relation may be reworded apart from the value
  // ("The API runs on Node 18" / "We upgraded the API to Node 22"), but never the subject.
  // The first word is the subject, unless the speaker is ("I use LastPass…") or a name both say
  // anchors it ("My laptop is a ThinkPad" / "I replaced the ThinkPad…").
  const nameKept = a.tokens.some((token, i) => token.kind === 'name' && !droppedAt[i]);
  const mayReword = (i: number) => {
    const token = a.tokens[i] as FactToken;
    if (isValue(token)) return false;
    return i !== 0 || nameKept || (a.person !== '' && !a.possessed.has(token.word));
  };
  const reworded = stretches.filter((stretch) => stretch.length === 1 && mayReword(stretch[0] as number));
  // A stretch with values on both sides of a word changed two things ("Release 2.3 is planned
  // for March" / "Release 2.4 slipped to May": which release, and when).
  const changes = stretches.reduce((sum, stretch) => sum + (valuesAroundAWord(stretch.map((i) => a.tokens[i] as FactToken)) ? 2 : 1), 0);
  const droppedStretches = changes - (changed && stretches.length > 1 && reworded.length > 0 ? 1 : 0);
  const seen = new Set<string>();
  const added = b.tokens.filter((token) => {
    if (inA(token) || token.past || seen.has(token.word)) return false;
    seen.add(token.word);
    return true;
  });
  return { kept, dropped, droppedStretches, added, changed };
}

function valuesAroundAWord(stretch: readonly FactToken[]): boolean {
  const firstValue = stretch.findIndex(isValue);
  const lastValue = stretch.findLastIndex(isValue);
  return firstValue >= 0 && stretch.slice(firstValue, lastValue).some((token) => !isValue(token));
}

/** The positions of the numbers written side by side with the number at `i`. */
function numberRunAround(tokens: readonly FactToken[], i: number): number[] {
  const isNumber = (j: number) => tokens[j]?.kind === 'number';
  let start = i;
  while (start > 0 && isNumber(start - 1)) start--;
  let end = i;
  while (end < tokens.length - 1 && isNumber(end + 1)) end++;
  return Array.from({ length: end - start + 1 }, (_, k) => start + k);
}
