import { describe, expect, it } from 'vitest';
import type { LexicalPosting } from '../src/domain/lexical-ranking.js';
import { inverseDocumentFrequency } from '../src/domain/lexical-ranking.js';
import { bm25Score, bm25TermScore, LEXICAL_RANKING } from '../src/index.js';
import { verifies } from './requirements.js';

const corpus = { documents: 100, averageLength: 10 };
const posting = (overrides: Partial<LexicalPosting> = {}): LexicalPosting => ({
  contentFrequency: 1,
  contextFrequency: 0,
  contentLength: 10,
  contextLength: 0,
  documentFrequency: 5,
  ...overrides,
});

describe('BM25 over a tenant’s statistics', () => {
  it(verifies('R-LEX-BM25', 'is Okapi BM25: idf · f·(k1+1) / (f + k1·(1 − b + b·len/avg))'), () => {
    const { k1, b } = LEXICAL_RANKING;
    const idf = Math.log(1 + (100 - 5 + 0.5) / (5 + 0.5));
    expect(inverseDocumentFrequency(100, 5)).toBeCloseTo(idf, 12);
    expect(bm25TermScore(posting({ contentFrequency: 2, contentLength: 20 }), corpus)).toBeCloseTo(
      (idf * 2 * (k1 + 1)) / (2 + k1 * (1 - b + (b * 20) / 10)),
      12,
    );
  });

  it(verifies('R-LEX-BM25', 'weighs a rare word above a common one, and never below zero'), () => {
    const rare = bm25TermScore(posting({ documentFrequency: 1 }), corpus);
    const common = bm25TermScore(posting({ documentFrequency: 60 }), corpus);
    const everywhere = bm25TermScore(posting({ documentFrequency: 100 }), corpus);
    expect(rare).toBeGreaterThan(3 * common);
    expect(everywhere).toBeGreaterThan(0);
    expect(everywhere).toBeLessThan(common);
  });

  it(verifies('R-LEX-BM25', 'saturates with repetition and prefers the shorter of two memories'), () => {
    const once = bm25TermScore(posting(), corpus);
    const twice = bm25TermScore(posting({ contentFrequency: 2 }), corpus);
    const tenTimes = bm25TermScore(posting({ contentFrequency: 10 }), corpus);
    expect(twice).toBeGreaterThan(once);
    expect(tenTimes).toBeLessThan(once * (LEXICAL_RANKING.k1 + 1));
    expect(bm25TermScore(posting({ contentLength: 40 }), corpus)).toBeLessThan(once);
  });

  it(verifies('R-LEX-BM25', 'counts a word of the search context at contextWeight of a word of the content'), () => {
    const inContent = bm25TermScore(posting({ contentFrequency: 1, contextLength: 10 }), corpus);
    const inContext = bm25TermScore(posting({ contentFrequency: 0, contextFrequency: 1, contextLength: 10 }), corpus);
    expect(inContext).toBeGreaterThan(0);
    expect(inContext).toBeLessThan(inContent);
    const weighted = { ...LEXICAL_RANKING, contextWeight: 1 };
    expect(bm25TermScore(posting({ contentFrequency: 0, contextFrequency: 1 }), corpus, weighted)).toBeCloseTo(
      bm25TermScore(posting(), corpus, weighted),
      12,
    );
  });

  it(verifies('R-LEX-BM25', 'sums a memory’s term scores and scales them by the share of the query’s terms it matched'), () => {
    const one = bm25TermScore(posting(), corpus);
    expect(bm25Score([posting(), posting({ documentFrequency: 9 })], 2, corpus)).toBeCloseTo(
      one + bm25TermScore(posting({ documentFrequency: 9 }), corpus),
      12,
    );
    // Coordination is off by default (docs/retrieval.md); set, it scales by (matched / query terms)^coordination.
    expect(bm25Score([posting()], 4, corpus)).toBeCloseTo(one, 12);
    expect(bm25Score([posting()], 4, corpus, { ...LEXICAL_RANKING, coordination: 0.5 })).toBeCloseTo(one * 0.5, 12); // (1/4)^0.5
    expect(bm25Score([], 3, corpus)).toBe(0);
  });

  it(verifies('R-LEX-BOUNDED', 'bounds the work of a query: a few dozen terms, a few thousand postings, a hundred each past that'), () => {
    expect(LEXICAL_RANKING.postingBudget).toBeLessThanOrEqual(5000);
    expect(LEXICAL_RANKING.maxQueryTerms).toBeGreaterThan(0);
    expect(LEXICAL_RANKING.maxQueryTerms).toBeLessThanOrEqual(64);
    expect(LEXICAL_RANKING.postingsPerTerm).toBeGreaterThanOrEqual(30);
    expect(LEXICAL_RANKING.postingsPerTerm).toBeLessThanOrEqual(200);
  });
});
