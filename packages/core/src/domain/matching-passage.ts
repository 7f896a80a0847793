import { FUNCTION_WORDS, stemWord } from './fact-shape.js';
import { rankingQueryText } from './query-terms.js';

/**
 * What a hit on a long memory shows: the passage that matches the query, not the whole text.
 * An assistant's answer or a document of several KB is often found by one paragraph of it; ten
 * such hits in full would fill a model's context with what the query did not ask for, and a
 * block cut to a budget would show each memory's beginning, not the part that matched.
 */
export const PASSAGES = Object.freeze({
  /** A memory at most this long is shown whole. */
  wholeUpTo: 1_000,
  /** The longest passage, in characters (without the "…" marks). */
  maxChars: 600,
});

/** A passage of a memory's content: `text` is characters [start, end) with "…" where it was cut. */
export interface Passage {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** The whole content's length, so a reader knows how much was left out. */
  readonly length: number;
}

interface Segment {
  readonly start: number;
  readonly end: number;
  /** The query stems its words hold. */
  readonly stems: ReadonlySet<string>;
}

const QUERY_WORD = /[\p{L}\p{N}]+(?:['’]\p{L}+)?/gu;
// A segment ends after a sentence's end mark (with its closing quotes or brackets) or at a line
// break: sentences, list items and headings are what a reader takes in at once.
const SEGMENT_END = /[.!?。！？]+["'”’)\]]*\s+|\n+/gu;

// Stems of the words seen lately: a long memory repeats its words, and recall shows ten of them
// per call; bounded, emptied when full.
const STEMS_KEPT = 8_192;
const stemmed = new Map<string, string>();
function stemOf(word: string): string {
  let stem = stemmed.get(word);
  if (stem === undefined) {
    if (stemmed.size >= STEMS_KEPT) stemmed.clear();
    stem = stemWord(word);
    stemmed.set(word, stem);
  }
  return stem;
}

// A recall shows up to 50 hits for one query: its words are read once.
let lastQuery: { readonly query: string; readonly stems: readonly string[] } | undefined;

/** The query's words that can place a passage: not function words, not a contraction's letter ("I'm"). */
function queryStemsOf(query: string): readonly string[] {
  if (lastQuery?.query === query) return lastQuery.stems;
  const stems = new Set<string>();
  for (const [word] of rankingQueryText(query).toLowerCase().matchAll(QUERY_WORD)) {
    const bare = word.replace(/['’].*$/u, '');
    if (bare.length >= 2 && !FUNCTION_WORDS.has(bare)) stems.add(stemOf(bare));
  }
  lastQuery = { query, stems: [...stems] };
  return lastQuery.stems;
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/**
 * The content's segments, each with the query stems it holds, and where the first query word
 * stands. Words are not tokenized one by one: each stem's spelling is searched for (a stem is its
 * word's beginning but for a final "y": "stor" finds "stories"), and only a word starting there
 * is stemmed, so a long memory costs a substring search per query word. Lower-casing can change a
 * text's length in a few scripts; positions are then approximate, which moves a passage, never
 * its offsets out of the content.
 */
function segmentsOf(content: string, queryStems: readonly string[]): { segments: Segment[]; firstMatch: number[] } {
  const segments: Segment[] = [];
  let start = 0;
  const add = (end: number) => {
    if (content.slice(start, end).trim() !== '') segments.push({ start, end, stems: new Set<string>() });
  };
  for (const match of content.matchAll(SEGMENT_END)) {
    const end = (match.index ?? 0) + match[0].length;
    add(end);
    start = end;
  }
  add(content.length);
  const firstMatch = segments.map(() => Number.POSITIVE_INFINITY);
  const lower = content.toLowerCase();
  for (const stem of queryStems) {
    const spelling = stem.length > 2 && stem.endsWith('y') ? stem.slice(0, -1) : stem;
    let segment = 0;
    for (let at = lower.indexOf(spelling); at >= 0; at = lower.indexOf(spelling, at + 1)) {
      if (at > 0 && WORD_CHARACTER.test(lower[at - 1] ?? '')) continue;
      let end = at + spelling.length;
      while (end < lower.length && WORD_CHARACTER.test(lower[end] ?? '')) end++;
      if (stemOf(lower.slice(at, end)) !== stem) continue;
      while (segment < segments.length && (segments[segment] as Segment).end <= at) segment++;
      const found = segments[segment];
      if (!found) break;
      (found.stems as Set<string>).add(stem);
      firstMatch[segment] = Math.min(firstMatch[segment] ?? at, at);
    }
  }
  return { segments, firstMatch };
}

/**
 * The passage of `content` that best matches `query`, or undefined when the content is short
 * enough to show whole. The passage is a run of whole sentences (or lines) of at most `maxChars`
 * covering the most query words, each weighed by how few of the memory's sentences hold it (a
 * word the whole memory repeats says little about where the answer is); between runs covering
 * as much, the one with more matches, then the earlier. Words are compared lightly stemmed;
 * question words and function words ("at", "the") do not count.
 * A sentence longer than the passage is cut around its first matching word; a memory matching
 * none of the words shows its beginning.
 */
export function matchingPassage(content: string, query: string, limits: typeof PASSAGES = PASSAGES): Passage | undefined {
  if (content.length <= limits.wholeUpTo) return undefined;
  const queryStems = queryStemsOf(query);
  const { segments, firstMatch } = segmentsOf(content, queryStems);
  const holding = new Map(queryStems.map((stem) => [stem, segments.filter((segment) => segment.stems.has(stem)).length]));
  const weight = (stem: string) => {
    const count = holding.get(stem) ?? 0;
    return count === 0 ? 0 : Math.log(1 + segments.length / count);
  };
  const weights = new Map(queryStems.map((stem) => [stem, weight(stem)]));
  const matchOf = segments.map((segment) =>
    queryStems.reduce((sum, stem) => sum + (segment.stems.has(stem) ? (weights.get(stem) ?? 0) : 0), 0),
  );
  // Best: the most query words covered; between equals, the most matches (a run about the
  // thing, not one that grazes it), then the shorter. A run starts at a matching segment.
  let best = { covered: 0, matches: 0, first: 0, last: -1 };
  for (let first = 0; first < segments.length; first++) {
    if (matchOf[first] === 0) continue;
    const seen = new Set<string>();
    let covered = 0;
    let matches = 0;
    for (let last = first; last < segments.length; last++) {
      const segment = segments[last] as Segment;
      if (last > first && segment.end - (segments[first] as Segment).start > limits.maxChars) break;
      for (const stem of queryStems) {
        if (!seen.has(stem) && segment.stems.has(stem)) {
          seen.add(stem);
          covered += weights.get(stem) ?? 0;
        }
      }
      matches += matchOf[last] ?? 0;
      if (covered > best.covered || (covered === best.covered && matches > best.matches)) best = { covered, matches, first, last };
    }
  }
  if (best.last < 0) return cut(content, 0, limits.maxChars);
  const start = (segments[best.first] as Segment).start;
  const end = (segments[best.last] as Segment).end;
  if (end - start <= limits.maxChars) return cut(content, start, end);
  // One sentence longer than a passage: the part around its first matching word.
  const at = Math.min(firstMatch[best.first] ?? start, end);
  const from = Math.max(start, Math.min(at - Math.floor(limits.maxChars / 4), end - limits.maxChars));
  return cut(content, from, from + limits.maxChars);
}

/** Characters [start, end) of content, trimmed, with "…" on each side that was cut. */
function cut(content: string, start: number, end: number): Passage {
  // Never split a surrogate pair.
  const safeStart = start > 0 && /[\uDC00-\uDFFF]/.test(content[start] ?? '') ? start + 1 : start;
  const safeEnd = end < content.length && /[\uDC00-\uDFFF]/.test(content[end] ?? '') ? end + 1 : end;
  const raw = content.slice(safeStart, safeEnd);
  const lead = raw.length - raw.trimStart().length;
  const trail = raw.length - raw.trimEnd().length;
  const from = safeStart + lead;
  const to = safeEnd - trail;
  const text = `${from > 0 ? '…' : ''}${content.slice(from, to)}${to < content.length ? '…' : ''}`;
  return { text, start: from, end: to, length: content.length };
}
