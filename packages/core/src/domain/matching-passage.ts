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
  readonly stems: ReadonlySet<string>;
}

const WORD = /[\p{L}\p{N}]+/gu;
// A segment ends after a sentence's end mark (with its closing quotes or brackets) or at a line
// break: sentences, list items and headings are what a reader takes in at once.
const SEGMENT_END = /[.!?。！？]+["'”’)\]]*\s+|\n+/gu;

function stemsOf(text: string, { content = true } = {}): Set<string> {
  const stems = new Set<string>();
  for (const [word] of text.toLowerCase().matchAll(WORD)) if (content || !FUNCTION_WORDS.has(word)) stems.add(stemWord(word));
  return stems;
}

function segmentsOf(content: string): Segment[] {
  const segments: Segment[] = [];
  let start = 0;
  const add = (end: number) => {
    const text = content.slice(start, end);
    if (text.trim() !== '') segments.push({ start, end, stems: stemsOf(text) });
  };
  for (const match of content.matchAll(SEGMENT_END)) {
    const end = (match.index ?? 0) + match[0].length;
    add(end);
    start = end;
  }
  add(content.length);
  return segments;
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
  const queryStems = [...stemsOf(rankingQueryText(query), { content: false })];
  const segments = segmentsOf(content);
  const holding = new Map(queryStems.map((stem) => [stem, segments.filter((segment) => segment.stems.has(stem)).length]));
  const weight = (stem: string) => {
    const count = holding.get(stem) ?? 0;
    return count === 0 ? 0 : Math.log(1 + segments.length / count);
  };
  const matchOf = (segment: Segment) => queryStems.reduce((sum, stem) => sum + (segment.stems.has(stem) ? weight(stem) : 0), 0);
  // Best: the most query words covered; between equals, the most matches (a run about the
  // thing, not one that grazes it), then the shorter. A run starts at a matching segment.
  let best = { covered: 0, matches: 0, first: 0, last: -1 };
  for (let first = 0; first < segments.length; first++) {
    if (matchOf(segments[first] as Segment) === 0) continue;
    const seen = new Set<string>();
    let covered = 0;
    let matches = 0;
    for (let last = first; last < segments.length; last++) {
      const segment = segments[last] as Segment;
      if (last > first && segment.end - (segments[first] as Segment).start > limits.maxChars) break;
      for (const stem of queryStems) {
        if (!seen.has(stem) && segment.stems.has(stem)) {
          seen.add(stem);
          covered += weight(stem);
        }
      }
      matches += matchOf(segment);
      if (covered > best.covered || (covered === best.covered && matches > best.matches)) best = { covered, matches, first, last };
    }
  }
  if (best.last < 0) return cut(content, 0, limits.maxChars);
  const start = (segments[best.first] as Segment).start;
  const end = (segments[best.last] as Segment).end;
  if (end - start <= limits.maxChars) return cut(content, start, end);
  // One sentence longer than a passage: the part around its first matching word.
  const sentence = content.slice(start, end).toLowerCase();
  let at = 0;
  for (const match of sentence.matchAll(WORD)) {
    if (queryStems.includes(stemWord(match[0]))) {
      at = match.index ?? 0;
      break;
    }
  }
  const from = Math.max(start, Math.min(start + at - Math.floor(limits.maxChars / 4), end - limits.maxChars));
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
