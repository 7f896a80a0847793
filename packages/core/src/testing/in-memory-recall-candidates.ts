import type { RecallCandidate } from '../domain/recall-ranking.js';
import type { RecallCandidateQuery } from '../ports/memory-store.js';
import { cosineSimilarity } from './cosine-similarity.js';
import { lexicalList } from './in-memory-lexical-list.js';
import type { InMemoryTenant } from './in-memory-tenant.js';
import { matchesFilters } from './memory-visibility.js';
import { type StoredMemory, toRecord } from './stored-memory.js';

/**
 * Both candidate lists of a recall, as the SQL stores return them: the `perList` nearest
 * memories that pass the filters (those below `minSimilarity` then dropped, the rest numbered by
 * similarity), and the `perList` best BM25 matches (lexicalList); each memory once, with its
 * place in each list it is in. `query.vector` is already checked against the vector space.
 */
export function recallCandidates(tenant: InMemoryTenant, query: RecallCandidateQuery): RecallCandidate[] {
  const rows = [...tenant.rows.values()];
  const visible = (row: StoredMemory) => matchesFilters(row, query.filters, query.now);
  const found = new Map<StoredMemory, { vectorRank?: number; similarity?: number; lexicalRank?: number; lexicalScore?: number }>();

  const { vector } = query;
  if (vector) {
    const nearest: { row: StoredMemory; similarity: number }[] = [];
    for (const row of rows) {
      if (!row.vector || !visible(row)) continue;
      const similarity = cosineSimilarity(row.vector, vector);
      if (similarity !== undefined) nearest.push({ row, similarity });
    }
    nearest
      .sort((a, b) => b.similarity - a.similarity || (a.row.id < b.row.id ? 1 : -1))
      .slice(0, query.perList)
      .filter(({ similarity }) => similarity >= query.minSimilarity)
      .forEach(({ row, similarity }, i) => {
        found.set(row, { vectorRank: i + 1, similarity });
      });
  }

  // The index holds every memory that is not deleted; the statistics are computed over them all.
  const indexed = rows.filter((row) => row.deletedAt === null);
  for (const hit of lexicalList(indexed, query, visible)) {
    found.set(hit.row, { ...found.get(hit.row), lexicalRank: hit.rank, lexicalScore: hit.score });
  }

  return [...found].map(([row, lists]) => ({
    memory: toRecord(row),
    vectorRank: lists.vectorRank,
    lexicalRank: lists.lexicalRank,
    lexicalScore: lists.lexicalScore,
    similarity: lists.similarity,
  }));
}
