import { type Kysely, sql } from 'kysely';

/**
 * BM25 with per-tenant statistics, at a cost bounded per query term.
 *
 * `memory_terms` holds one posting per (memory, stemmed term) of every live memory: how often the
 * term occurs in the content and in the search context (kept apart so core can weigh them),
 * and the memory's two lengths. `lexical_terms` counts, per tenant, the memories containing each
 * term (document frequency) and `lexical_corpus` the tenant's memories and total lengths: the
 * statistics of Okapi BM25, per tenant, so a word common in one tenant's memories weighs little
 * there whatever other tenants write.
 *
 * `impact` orders a term's postings for reading: BM25's term-frequency part (k1 1.2, b 0.75,
 * context counted half) with the tenant's average length when the posting was written. A query
 * reads each term's best postings straight from `memory_terms_impact_idx` and stops after a
 * fixed number, so a word in 20% of a tenant's memories costs what a rare word costs; the score
 * itself is computed at query time with today's statistics and core's parameters
 * (LEXICAL_RANKING), so `impact` only decides which postings of a very common term are read.
 *
 * The trigger keeps all three tables in step with every change of what is searchable (insert,
 * content or context update, soft delete and restore, hard delete), on both engines and in
 * every code path. It is a deferred constraint trigger: it runs at COMMIT, so the tenant's
 * statistics rows are locked for the commit alone, not for the whole write transaction. It locks
 * the tenant's `lexical_corpus` row first, so two transactions never take one tenant's term rows
 * in opposite orders (no deadlock).
 *
 * TRUNCATE of memories empties the three tables too (tests and operators reset with it).
 *
 * The tsvector column and its GIN index are gone: recall no longer matches with `@@`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE memory_terms (
      memory_id         uuid NOT NULL,
      user_id           text NOT NULL,
      term              text NOT NULL,
      content_frequency real NOT NULL,
      context_frequency real NOT NULL,
      content_length    real NOT NULL,
      context_length    real NOT NULL,
      impact            real NOT NULL,
      PRIMARY KEY (memory_id, term)
    )`.execute(db);
  await sql`
    CREATE INDEX memory_terms_impact_idx ON memory_terms (user_id, term, impact DESC)
      INCLUDE (memory_id, content_frequency, context_frequency, content_length, context_length)`.execute(db);
  await sql`
    CREATE TABLE lexical_terms (
      user_id   text NOT NULL,
      term      text NOT NULL,
      documents integer NOT NULL,
      PRIMARY KEY (user_id, term)
    )`.execute(db);
  await sql`
    CREATE TABLE lexical_corpus (
      user_id               text PRIMARY KEY,
      documents             integer NOT NULL DEFAULT 0,
      total_content_length  double precision NOT NULL DEFAULT 0,
      total_context_length  double precision NOT NULL DEFAULT 0
    )`.execute(db);

  await sql`
    CREATE FUNCTION memsvc_memory_terms(content text, context text)
      RETURNS TABLE (term text, content_frequency real, context_frequency real)
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
        SELECT coalesce(a.lexeme, b.lexeme),
               coalesce(cardinality(a.positions), 0)::real,
               coalesce(cardinality(b.positions), 0)::real
        FROM unnest(to_tsvector('english', content)) AS a
        FULL JOIN unnest(to_tsvector('english', coalesce(context, ''))) AS b ON a.lexeme = b.lexeme
        -- a lexeme this long is a blob (a key, a hash, a URL), never a word a question asks with
        WHERE length(coalesce(a.lexeme, b.lexeme)) <= 100
      $fn$`.execute(db);

  await sql`
    CREATE FUNCTION memsvc_index_memory_terms() RETURNS trigger LANGUAGE plpgsql AS $fn$
    DECLARE
      tenant text;
      memory uuid;
      corpus lexical_corpus%ROWTYPE;
      removed_content real := 0;
      removed_context real := 0;
      removed boolean := false;
      added_content real := 0;
      added_context real := 0;
      added boolean := false;
      average real;
    BEGIN
      IF TG_OP = 'DELETE' THEN tenant := OLD.user_id; memory := OLD.id;
      ELSE tenant := NEW.user_id; memory := NEW.id; END IF;

      INSERT INTO lexical_corpus (user_id) VALUES (tenant) ON CONFLICT (user_id) DO NOTHING;
      SELECT * INTO corpus FROM lexical_corpus WHERE user_id = tenant FOR UPDATE;

      WITH gone AS (DELETE FROM memory_terms WHERE memory_id = memory RETURNING term, content_length, context_length),
      counted AS (
        UPDATE lexical_terms SET documents = lexical_terms.documents - 1
        FROM gone WHERE lexical_terms.user_id = tenant AND lexical_terms.term = gone.term
      )
      SELECT count(*) > 0, coalesce(max(content_length), 0), coalesce(max(context_length), 0)
        INTO removed, removed_content, removed_context FROM gone;

      IF TG_OP = 'DELETE' THEN
        NULL;
      ELSIF NEW.deleted_at IS NULL THEN
        average := CASE WHEN corpus.documents > 0
          THEN (corpus.total_content_length + 0.5 * corpus.total_context_length) / corpus.documents END;
        WITH terms AS (SELECT * FROM memsvc_memory_terms(NEW.content, NEW.search_context)),
        lengths AS (SELECT sum(terms.content_frequency) AS content_length, sum(terms.context_frequency) AS context_length FROM terms),
        posted AS (
          INSERT INTO memory_terms (memory_id, user_id, term, content_frequency, context_frequency, content_length, context_length, impact)
          SELECT memory, tenant, terms.term, terms.content_frequency, terms.context_frequency, lengths.content_length, lengths.context_length,
                 (terms.content_frequency + 0.5 * terms.context_frequency) * 2.2
                 / (terms.content_frequency + 0.5 * terms.context_frequency
                    + 1.2 * (0.25 + 0.75 * (lengths.content_length + 0.5 * lengths.context_length)
                             / coalesce(average, lengths.content_length + 0.5 * lengths.context_length)))
          FROM terms, lengths
          RETURNING term, content_length, context_length
        ),
        counted AS (
          INSERT INTO lexical_terms (user_id, term, documents) SELECT tenant, posted.term, 1 FROM posted
          ON CONFLICT (user_id, term) DO UPDATE SET documents = lexical_terms.documents + 1
        )
        SELECT count(*) > 0, coalesce(max(content_length), 0), coalesce(max(context_length), 0)
          INTO added, added_content, added_context FROM posted;
      END IF;

      IF removed OR added THEN
        UPDATE lexical_corpus SET
          documents = documents + added::int - removed::int,
          total_content_length = total_content_length + added_content - removed_content,
          total_context_length = total_context_length + added_context - removed_context
        WHERE user_id = tenant;
      END IF;
      RETURN NULL;
    END
    $fn$`.execute(db);

  await sql`
    CREATE CONSTRAINT TRIGGER memories_lexical_index_write AFTER INSERT OR DELETE ON memories
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION memsvc_index_memory_terms()`.execute(db);
  await sql`
    CREATE CONSTRAINT TRIGGER memories_lexical_index_update AFTER UPDATE OF content, search_context, deleted_at ON memories
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN (OLD.content IS DISTINCT FROM NEW.content
            OR OLD.search_context IS DISTINCT FROM NEW.search_context
            OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL))
      EXECUTE FUNCTION memsvc_index_memory_terms()`.execute(db);

  // TRUNCATE fires no row trigger: an emptied memories table empties its index with it.
  await sql`
    CREATE FUNCTION memsvc_truncate_memory_terms() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      TRUNCATE memory_terms, lexical_terms, lexical_corpus;
      RETURN NULL;
    END
    $fn$`.execute(db);
  await sql`
    CREATE TRIGGER memories_lexical_index_truncate AFTER TRUNCATE ON memories
      FOR EACH STATEMENT EXECUTE FUNCTION memsvc_truncate_memory_terms()`.execute(db);

  // The memories written before this version.
  await sql`
    INSERT INTO memory_terms (memory_id, user_id, term, content_frequency, context_frequency, content_length, context_length, impact)
    SELECT m.id, m.user_id, t.term, t.content_frequency, t.context_frequency,
           sum(t.content_frequency) OVER (PARTITION BY m.id), sum(t.context_frequency) OVER (PARTITION BY m.id), 0
    FROM memories m CROSS JOIN LATERAL memsvc_memory_terms(m.content, m.search_context) t
    WHERE m.deleted_at IS NULL`.execute(db);
  await sql`
    INSERT INTO lexical_corpus (user_id, documents, total_content_length, total_context_length)
    SELECT user_id, count(*), sum(content_length), sum(context_length)
    FROM (SELECT DISTINCT ON (memory_id) user_id, content_length, context_length FROM memory_terms) AS documents
    GROUP BY user_id`.execute(db);
  await sql`INSERT INTO lexical_terms (user_id, term, documents) SELECT user_id, term, count(*) FROM memory_terms GROUP BY user_id, term`.execute(
    db,
  );
  await sql`
    UPDATE memory_terms SET impact = (content_frequency + 0.5 * context_frequency) * 2.2
      / (content_frequency + 0.5 * context_frequency
         + 1.2 * (0.25 + 0.75 * (content_length + 0.5 * context_length)
                  / ((c.total_content_length + 0.5 * c.total_context_length) / c.documents)))
    FROM lexical_corpus c WHERE c.user_id = memory_terms.user_id`.execute(db);

  await sql`ALTER TABLE memories DROP COLUMN search_vector`.execute(db);
}
