const WORD = /[\p{L}\p{N}]+/gu;
/** As in the SQL index: a "word" this long is a blob (a key, a hash, a URL), never what a question asks with. */
const MAX_TERM_LENGTH = 100;

/**
 * The terms of a text and how often each occurs: lowercase runs of letters and digits. Unlike the
 * SQL stores' English configuration there is no stemming ("deploys" and "deploying" are two
 * terms) and no stop-word list ("the" is a term): core has neither, and a rough copy would
 * disagree with PostgreSQL in ways harder to see than a plain tokenizer does. The in-memory
 * store's full text and every `asOf` recall (on any store) use it.
 */
export function lexicalTerms(text: string): Map<string, number> {
  const terms = new Map<string, number>();
  for (const [word] of text.normalize('NFC').toLowerCase().matchAll(WORD)) {
    if (word.length <= MAX_TERM_LENGTH) terms.set(word, (terms.get(word) ?? 0) + 1);
  }
  return terms;
}
