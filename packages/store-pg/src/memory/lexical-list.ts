import type { RecallCandidateQuery, RecallFilters, TenantId } from '@memsvc/core';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { filterVisibleMemories, type MemoriesQuery } from './memory-filters.js';

/**
 * Whether a posting's memory passes the recall's filters, fetched by primary key: the postings
 * are the tenant's already (their user_id is the memory's, written by the same trigger).
 */
function visibleMemory(db: Kysely<MemsvcDatabase>, query: RecallCandidateQuery, memoryId: RawBuilder<unknown>) {
  return filterVisibleMemories(db.selectFrom('memories') as MemoriesQuery, query.filters, query.now)
    .select(sql`1`.as('one'))
    .where(sql<boolean>`memories.id = ${memoryId}`);
}

/** Whether a recall narrows its memories beyond the defaults (live, unexpired, not superseded). */
function isNarrowed(filters: RecallFilters): boolean {
  const { tier, scope, tags, metadata, createdFrom, createdTo } = filters;
  return [tier, scope, tags, metadata, createdFrom, createdTo].some((filter) => filter !== undefined);
}

/**
 * Okapi BM25 over the tenant's postings (migration 0008), as core's bm25TermScore writes it. The
 * statistics are sums over the tenant's stripes (migration 0015).
 * The query's words are stemmed by the same configuration as the memories (English, stop words
 * dropped); of the terms the tenant has, the rarest `maxQueryTerms` are used. The rarest terms
 * are read whole while `postingBudget` lasts, each further term its best `postingsPerTerm`
 * postings in impact order from the index, so the cost of a query does not grow with how many
 * memories contain its words; a memory's term scores are summed, scaled by the share
 * of the query's terms it matched (bm25Score), and the best `perList` memories are the list.
 *
 * Postings exist for live memories only; the default filters can still hide a few of them
 * (superseded ones, expired short-term ones), which is checked for the best 2 × perList sums
 * alone, by primary key. A recall that narrows (tier, scope, tags, metadata, dates) checks every
 * posting it reads instead, so each term's best postings are its best among the memories asked for.
 */
export function lexicalListSql(db: Kysely<MemsvcDatabase>, tenant: TenantId, query: RecallCandidateQuery) {
  const { k1, b, contextWeight, coordination, postingsPerTerm, postingBudget, maxQueryTerms } = query.lexical;
  const narrowed = isNarrowed(query.filters);
  const weight = sql`${contextWeight}::double precision`;
  const postingFilter = narrowed ? sql`AND EXISTS (${visibleMemory(db, query, sql.ref('posting.memory_id'))})` : sql``;
  const scored = sql`
    SELECT posting.memory_id AS id,
           sum(posting.score) * power(count(*)::double precision / max(posting.terms), ${coordination}::double precision) AS lexical_score
    FROM (
      SELECT sum(documents) AS documents, (sum(total_content_length) + ${weight} * sum(total_context_length)) / sum(documents) AS average_length
      FROM lexical_corpus WHERE user_id = ${tenant} HAVING sum(documents) > 0
    ) AS corpus
    CROSS JOIN LATERAL (
      SELECT term, idf, count(*) OVER () AS terms,
             -- every posting of the rarest terms while the budget lasts, then each term's best postingsPerTerm
             greatest(${postingsPerTerm}::bigint, least(documents, ${postingBudget}::bigint - (sum(documents) OVER (ORDER BY documents, term) - documents)))
               AS postings
      FROM (
        SELECT term, documents, ln(1 + (corpus.documents - documents + 0.5::double precision) / (documents + 0.5::double precision)) AS idf
        FROM (
          SELECT term, sum(documents)::integer AS documents
          FROM lexical_terms
          WHERE user_id = ${tenant} AND term = ANY(tsvector_to_array(to_tsvector('english', ${query.text})))
          GROUP BY term
        ) AS counted
        WHERE documents > 0
        ORDER BY documents, term
        LIMIT ${maxQueryTerms}
      ) AS rarest
    ) AS query_term
    CROSS JOIN LATERAL (
      SELECT posting.memory_id, query_term.terms,
             query_term.idf * frequency * ${k1 + 1}::double precision
               / (frequency + ${k1}::double precision * (1 - ${b}::double precision + ${b}::double precision * length / corpus.average_length)) AS score
      FROM (
        SELECT memory_id,
               content_frequency + ${weight} * context_frequency AS frequency,
               content_length + ${weight} * context_length AS length
        FROM memory_terms AS posting
        WHERE posting.user_id = ${tenant} AND posting.term = query_term.term ${postingFilter}
        ORDER BY posting.impact DESC
        LIMIT query_term.postings
      ) AS posting
    ) AS posting
    GROUP BY posting.memory_id
    ORDER BY lexical_score DESC, posting.memory_id DESC
    LIMIT ${narrowed ? query.perList : query.perList * 2}`;
  const visible = narrowed ? sql`` : sql`WHERE EXISTS (${visibleMemory(db, query, sql.ref('scored.id'))})`;
  return sql`
    SELECT scored.id, scored.lexical_score, row_number() OVER (ORDER BY scored.lexical_score DESC, scored.id DESC) AS lexical_rank
    FROM (${scored}) AS scored
    ${visible}
    ORDER BY scored.lexical_score DESC, scored.id DESC
    LIMIT ${query.perList}`;
}
