/**
 * Okapi BM25 over a tenant's own statistics: the lexical list of recall. The store keeps one
 * posting per (memory, stemmed term) with the term's frequency in the content and in the search
 * context, and per tenant the number of memories containing each term and their total length;
 * it evaluates `bm25TermScore` in SQL with these parameters, and a store test compares its
 * output with this function on the same rows.
 */
export interface LexicalRanking {
  /** Term-frequency saturation: how quickly a repeated word stops adding to the score. */
  readonly k1: number;
  /**
   * Length normalisation: 0 ignores length, 1 divides fully by length relative to the average.
   * Strong, because agents' memories differ in length by two orders of magnitude: a user's
   * 150-character turn about a thing must outrank a 4 KB answer that mentions it once. Where
   * memories are of a length (LoCoMo's turns) b hardly matters. Measured (docs/retrieval.md):
   * LongMemEval turn any@5 0.733 at 0.5, 0.750 at 0.75, 0.783–0.800 from 0.85 to 1; LoCoMo
   * within ±0.006 of 0.673 / 0.724 over the same range. 0.9 is from the middle of the plateau.
   */
  readonly b: number;
  /**
   * What one occurrence in the search context (the turn before, the speaker, the date, the
   * caller's metadata) counts against one in the content itself. Context helps a question find
   * its answer, but a memory must not outrank one that says the words itself.
   */
  readonly contextWeight: number;
  /**
   * How much matching more of the query's terms counts beyond their BM25 scores: a memory's sum
   * is multiplied by (matched terms / query terms)^coordination. Off (0): on LongMemEval's check
   * split 0.5 cost turn any@5 0.030 (0.851 against 0.881; preference questions, whose answer
   * shares one or two of a long request's words, most), on LoCoMo it gave 0.004 / 0.006
   * (docs/retrieval.md). The store still applies it when set.
   */
  readonly coordination: number;
  /**
   * The postings a query reads, rarest term first: every posting of its terms while the total
   * stays within this budget, so BM25 is exact for most queries (all of a tenant's matches are
   * scored). Past it, each further term reads its best `postingsPerTerm` postings only, so a
   * query's cost does not grow with how common its words are; what a capped term leaves out are
   * the memories where it weighs least (long memories that mention it once).
   */
  readonly postingBudget: number;
  /** The postings read of a term past the budget, best first (see postingBudget). */
  readonly postingsPerTerm: number;
  /** The most query terms used, rarest first: a 2,048-character query stays bounded. */
  readonly maxQueryTerms: number;
}

export const LEXICAL_RANKING: LexicalRanking = Object.freeze({
  k1: 1.2,
  b: 0.9,
  contextWeight: 0.5,
  coordination: 0,
  postingBudget: 3000,
  postingsPerTerm: 100,
  maxQueryTerms: 32,
});

/** A tenant's corpus statistics, as BM25 needs them. */
export interface LexicalCorpusStatistics {
  /** Live memories with at least one indexed term. */
  readonly documents: number;
  /** Average weighted length (content terms + contextWeight × context terms). */
  readonly averageLength: number;
}

/** One query term in one memory. */
export interface LexicalPosting {
  readonly contentFrequency: number;
  readonly contextFrequency: number;
  readonly contentLength: number;
  readonly contextLength: number;
  /** How many of the tenant's memories contain the term. */
  readonly documentFrequency: number;
}

/**
 * A memory's lexical score: the BM25 scores of the query terms it contains, summed, times the
 * coordination factor (matched terms / the query's terms)^coordination. `queryTerms` counts the
 * query's terms the tenant has (those the store could match).
 */
export function bm25Score(
  postings: readonly LexicalPosting[],
  queryTerms: number,
  corpus: LexicalCorpusStatistics,
  ranking: LexicalRanking = LEXICAL_RANKING,
): number {
  if (postings.length === 0 || queryTerms <= 0) return 0;
  const sum = postings.reduce((total, posting) => total + bm25TermScore(posting, corpus, ranking), 0);
  return sum * (Math.min(postings.length, queryTerms) / queryTerms) ** ranking.coordination;
}

/** BM25's inverse document frequency, in the form that never goes negative for common words. */
export function inverseDocumentFrequency(documents: number, documentFrequency: number): number {
  return Math.log(1 + (documents - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/** One term's contribution to a memory's BM25 score. */
export function bm25TermScore(posting: LexicalPosting, corpus: LexicalCorpusStatistics, ranking: LexicalRanking = LEXICAL_RANKING): number {
  const frequency = posting.contentFrequency + ranking.contextWeight * posting.contextFrequency;
  const length = posting.contentLength + ranking.contextWeight * posting.contextLength;
  const normaliser = ranking.k1 * (1 - ranking.b + (ranking.b * length) / corpus.averageLength);
  return (inverseDocumentFrequency(corpus.documents, posting.documentFrequency) * frequency * (ranking.k1 + 1)) / (frequency + normaliser);
}
