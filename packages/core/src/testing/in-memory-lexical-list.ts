import { bm25Score, bm25TermScore, type LexicalCorpusStatistics, type LexicalPosting } from '../domain/lexical-ranking.js';
import { lexicalTerms } from '../domain/plain-terms.js';
import type { RecallCandidateQuery, RecallFilters } from '../ports/memory-store.js';
import type { StoredMemory } from './stored-memory.js';

/** One entry of the full-text list: a memory, its BM25 score and its place (1-based). */
export interface LexicalHit {
  readonly row: StoredMemory;
  readonly score: number;
  readonly rank: number;
}

export { lexicalTerms };

/** The postings of one memory, kept until its content or search context changes. */
interface Document {
  readonly content: string;
  readonly context: string | null;
  readonly contentTerms: Map<string, number>;
  readonly contextTerms: Map<string, number>;
  readonly contentLength: number;
  readonly contextLength: number;
}

const documents = new WeakMap<StoredMemory, Document>();

function documentOf(row: StoredMemory): Document {
  const cached = documents.get(row);
  if (cached && cached.content === row.content && cached.context === row.searchContext) return cached;
  const contentTerms = lexicalTerms(row.content);
  const contextTerms = lexicalTerms(row.searchContext ?? '');
  const sum = (terms: Map<string, number>) => [...terms.values()].reduce((total, n) => total + n, 0);
  const document = {
    content: row.content,
    context: row.searchContext,
    contentTerms,
    contextTerms,
    contentLength: sum(contentTerms),
    contextLength: sum(contextTerms),
  };
  documents.set(row, document);
  return document;
}

/** Whether a recall narrows its memories beyond the defaults (live, unexpired, not superseded). */
function isNarrowed(filters: RecallFilters): boolean {
  const { tier, scope, tags, metadata, createdFrom, createdTo } = filters;
  return [tier, scope, tags, metadata, createdFrom, createdTo].some((filter) => filter !== undefined);
}

/**
 * The full-text list of a recall, as the SQL stores compute it (store-pg's lexical-list.ts):
 * Okapi BM25 through core's bm25Score, over the statistics of the tenant's memories that are not
 * deleted (`indexed`: document frequency, the number of memories with a term, their average
 * length); any query term may match; the rarest `maxQueryTerms` of the query's terms the tenant
 * has are used, each read whole while `postingBudget` lasts and past it its best
 * `postingsPerTerm` postings. The statistics are computed for each query, so they can never
 * drift from the memories. A posting's rank inside its term is its score under today's
 * statistics (the SQL index orders by a weight fixed when the posting was written).
 */
export function lexicalList(
  indexed: readonly StoredMemory[],
  query: RecallCandidateQuery,
  visible: (row: StoredMemory) => boolean,
): LexicalHit[] {
  const { lexical } = query;
  const docs = indexed.map((row) => ({ row, doc: documentOf(row) })).filter(({ doc }) => doc.contentLength + doc.contextLength > 0);
  if (docs.length === 0) return [];
  const frequency = new Map<string, number>();
  let totalLength = 0;
  for (const { doc } of docs) {
    totalLength += doc.contentLength + lexical.contextWeight * doc.contextLength;
    for (const term of new Set([...doc.contentTerms.keys(), ...doc.contextTerms.keys()]))
      frequency.set(term, (frequency.get(term) ?? 0) + 1);
  }
  const corpus: LexicalCorpusStatistics = { documents: docs.length, averageLength: totalLength / docs.length };

  const queryTerms = [...lexicalTerms(query.text).keys()]
    .filter((term) => frequency.has(term))
    .sort((a, b) => (frequency.get(a) ?? 0) - (frequency.get(b) ?? 0) || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, lexical.maxQueryTerms);
  const narrowed = isNarrowed(query.filters);
  const matched = new Map<StoredMemory, LexicalPosting[]>();
  let readBefore = 0;
  for (const term of queryTerms) {
    const documentFrequency = frequency.get(term) ?? 0;
    // Every posting of the rarest terms while the budget lasts, then each term's best postingsPerTerm.
    const reads = Math.max(lexical.postingsPerTerm, Math.min(documentFrequency, lexical.postingBudget - readBefore));
    readBefore += documentFrequency;
    const postings = docs
      .filter(({ row, doc }) => (doc.contentTerms.has(term) || doc.contextTerms.has(term)) && (!narrowed || visible(row)))
      .map(({ row, doc }) => {
        const posting: LexicalPosting = {
          contentFrequency: doc.contentTerms.get(term) ?? 0,
          contextFrequency: doc.contextTerms.get(term) ?? 0,
          contentLength: doc.contentLength,
          contextLength: doc.contextLength,
          documentFrequency,
        };
        return { row, posting, score: bm25TermScore(posting, corpus, lexical) };
      })
      .sort((a, b) => b.score - a.score)
      .slice(0, reads);
    for (const { row, posting } of postings) matched.set(row, [...(matched.get(row) ?? []), posting]);
  }

  // Unnarrowed, the best sums are read first and the hidden ones among them dropped after (twice
  // the list, as in SQL); narrowed, every posting read was checked already.
  const scored = [...matched]
    .map(([row, postings]) => ({ row, score: bm25Score(postings, queryTerms.length, corpus, lexical) }))
    .sort((a, b) => b.score - a.score || (a.row.id < b.row.id ? 1 : -1))
    .slice(0, narrowed ? query.perList : query.perList * 2);
  return (narrowed ? scored : scored.filter(({ row }) => visible(row))).slice(0, query.perList).map((hit, i) => ({ ...hit, rank: i + 1 }));
}
