// @ts-check
// The lexical baseline of `pnpm eval:conversations`: Okapi BM25 computed here, in the script,
// over the same units and questions memsvc is asked, so memsvc's recall is compared with what a
// plain keyword index gets on the same data (the dataset README quotes its reference figures).
// Lowercase `[a-z0-9]+` words, English stop words removed, optionally Porter-stemmed.
import { stemmer } from 'stemmer';

const K1 = 1.2;
/** Okapi's usual length normalisation; memsvc's own is stronger (LEXICAL_RANKING.b, 0.9). */
const B = 0.75;

// NLTK's English stop list without the forms that hold an apostrophe: the tokeniser splits
// "don't" into "don" and "t", and those halves are in the list. A stop list is data, not code.
export const STOP_WORDS = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself ' +
    'it its itself they them their theirs themselves what which who whom this that these those am is are was were be ' +
    'been being have has had having do does did doing a an the and but if or because as until while of at by for with ' +
    'about against between into through during before after above below to from up down in out on off over under again ' +
    'further then once here there when where why how all any both each few more most other some such no nor not only own ' +
    'same so than too very s t can will just don should now d ll m o re ve y ain aren couldn didn doesn hadn hasn haven ' +
    'isn ma mightn mustn needn shan shouldn wasn weren won wouldn'
  ).split(' '),
);

/**
 * Lowercase words, stop words removed; stemmed when asked.
 * @param {string} text
 * @param {{ stem?: boolean }} [options]
 * @returns {string[]}
 */
export function tokenize(text, { stem = false } = {}) {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const kept = words.filter((word) => !STOP_WORDS.has(word));
  return stem ? kept.map((word) => stemmer(word)) : kept;
}

/**
 * An index over `documents` (strings). `search(query, k)` returns the indices of the k best
 * documents, best first; ties keep document order, so the ranking is deterministic. Documents
 * that share no term with the query are never returned.
 * @param {string[]} documents
 * @param {{ stem?: boolean, b?: number }} [options] Porter stemming; length normalisation b (default 0.75)
 * @returns {{ search(query: string, k: number): number[] }}
 */
export function bm25Index(documents, { stem = false, b = B } = {}) {
  /** @type {Map<string, [number, number][]>} */
  const postings = new Map();
  const lengths = documents.map((document, i) => {
    /** @type {Map<string, number>} */
    const counts = new Map();
    const tokens = tokenize(document, { stem });
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const [term, tf] of counts) {
      if (!postings.has(term)) postings.set(term, []);
      /** @type {[number, number][]} */ (postings.get(term)).push([i, tf]);
    }
    return tokens.length;
  });
  const n = documents.length;
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, n);
  const idf = (/** @type {number} */ df) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
  return {
    search(query, k) {
      /** @type {Map<number, number>} */
      const scores = new Map();
      // Each distinct query term counts once: the questions are short and a repeated word in a
      // question is not meant as extra weight.
      for (const term of new Set(tokenize(query, { stem }))) {
        const list = postings.get(term);
        if (!list) continue;
        const weight = idf(list.length);
        for (const [i, tf] of list) {
          const norm = tf + K1 * (1 - b + (b * /** @type {number} */ (lengths[i])) / averageLength);
          scores.set(i, (scores.get(i) ?? 0) + (weight * (tf * (K1 + 1))) / norm);
        }
      }
      return [...scores]
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .slice(0, k)
        .map(([i]) => i);
    },
  };
}
