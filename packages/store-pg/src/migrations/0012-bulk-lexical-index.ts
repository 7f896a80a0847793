import { type Kysely, sql } from 'kysely';

/**
 * The lexical index of a bulk load, written set-based (issue 17: import ≥ 1,000 memories/s).
 *
 * The row trigger of migration 0008 updates the tenant's corpus row and one term row per term for
 * every inserted memory. Inside one transaction each update leaves a row version the next update
 * of the same row must step over, so a file's cost grew with the square of its size: one import
 * of 50,000 memories ran at 150 memories/s. A transaction that sets `memsvc.bulk_lexical` to
 * `on` (locally) while it inserts memories queues no trigger event for those inserts (the WHEN
 * clause is evaluated as each row is inserted), and must then call
 * `memsvc_index_memory_terms_bulk(tenant, ids)` for them before it commits: one statement that
 * writes the same postings, document frequencies and corpus totals the trigger would have, for
 * every memory at once.
 *
 * The same values, not approximations: the terms come from the same `memsvc_memory_terms`, and
 * each posting's `impact` uses the tenant's average length as the trigger would have seen it had
 * the memories been inserted one by one in the order given (the corpus before the load, plus the
 * memories before it in that order): a running average computed with a window. So ranking is
 * unchanged by the way a memory came in. Like the trigger, it locks the tenant's
 * `lexical_corpus` row before any term row, so a bulk load and the triggers of concurrent writers
 * to the same tenant serialise instead of deadlocking; the lock is held from this call to the
 * commit, so the import calls it last.
 *
 * Only inserts are skipped in bulk mode: deletes, and updates of what is searchable, always fire
 * the trigger (the insert and the delete triggers are separate from now on).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER memories_lexical_index_write ON memories`.execute(db);
  await sql`
    CREATE CONSTRAINT TRIGGER memories_lexical_index_write AFTER INSERT ON memories
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN (current_setting('memsvc.bulk_lexical', true) IS DISTINCT FROM 'on')
      EXECUTE FUNCTION memsvc_index_memory_terms()`.execute(db);
  await sql`
    CREATE CONSTRAINT TRIGGER memories_lexical_index_delete AFTER DELETE ON memories
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION memsvc_index_memory_terms()`.execute(db);

  // Types as in the trigger (real frequencies and lengths, a real average, double totals), so
  // every impact is the same float the trigger would store.
  await sql`
    CREATE FUNCTION memsvc_index_memory_terms_bulk(tenant text, memory_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $fn$
    DECLARE
      corpus lexical_corpus%ROWTYPE;
    BEGIN
      INSERT INTO lexical_corpus (user_id) VALUES (tenant) ON CONFLICT (user_id) DO NOTHING;
      SELECT * INTO corpus FROM lexical_corpus WHERE user_id = tenant FOR UPDATE;

      WITH live AS (
        SELECT m.id, m.content, m.search_context, given.position
        FROM unnest(memory_ids) WITH ORDINALITY AS given (id, position)
        JOIN memories m ON m.id = given.id AND m.user_id = tenant
        WHERE m.deleted_at IS NULL
      ),
      terms AS (
        SELECT live.id, live.position, t.term, t.content_frequency, t.context_frequency
        FROM live CROSS JOIN LATERAL memsvc_memory_terms(live.content, live.search_context) AS t
      ),
      -- A memory without a term is no document, as for the trigger (it posts nothing).
      lengths AS (
        SELECT id, position, sum(content_frequency) AS content_length, sum(context_frequency) AS context_length
        FROM terms GROUP BY id, position
      ),
      before AS (
        SELECT id, content_length, context_length,
               corpus.documents + count(*) OVER earlier AS documents,
               corpus.total_content_length + coalesce(sum(content_length::double precision) OVER earlier, 0) AS total_content,
               corpus.total_context_length + coalesce(sum(context_length::double precision) OVER earlier, 0) AS total_context
        FROM lengths
        WINDOW earlier AS (ORDER BY position ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
      ),
      averaged AS (
        SELECT id, content_length, context_length,
               (CASE WHEN documents > 0 THEN (total_content + 0.5 * total_context) / documents END)::real AS average
        FROM before
      ),
      posted AS (
        INSERT INTO memory_terms (memory_id, user_id, term, content_frequency, context_frequency, content_length, context_length, impact)
        SELECT terms.id, tenant, terms.term, terms.content_frequency, terms.context_frequency, a.content_length, a.context_length,
               (terms.content_frequency + 0.5 * terms.context_frequency) * 2.2
               / (terms.content_frequency + 0.5 * terms.context_frequency
                  + 1.2 * (0.25 + 0.75 * (a.content_length + 0.5 * a.context_length)
                           / coalesce(a.average, a.content_length + 0.5 * a.context_length)))
        FROM terms JOIN averaged AS a ON a.id = terms.id
        -- In primary-key order: each B-tree page is then written once, not revisited at random
        ORDER BY terms.id, terms.term
        RETURNING term
      ),
      counted AS (
        INSERT INTO lexical_terms (user_id, term, documents)
        SELECT tenant, posted.term, count(*) FROM posted GROUP BY posted.term
        ON CONFLICT (user_id, term) DO UPDATE SET documents = lexical_terms.documents + excluded.documents
      )
      UPDATE lexical_corpus SET
        documents = lexical_corpus.documents + added.documents,
        total_content_length = lexical_corpus.total_content_length + added.content_length,
        total_context_length = lexical_corpus.total_context_length + added.context_length
      FROM (SELECT count(*)::int AS documents, coalesce(sum(content_length::double precision), 0) AS content_length,
                   coalesce(sum(context_length::double precision), 0) AS context_length FROM lengths) AS added
      WHERE lexical_corpus.user_id = tenant AND added.documents > 0;
    END
    $fn$`.execute(db);
}
