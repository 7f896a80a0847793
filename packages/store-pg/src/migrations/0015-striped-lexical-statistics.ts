import { type Kysely, sql } from 'kysely';

/**
 * The lexical statistics in stripes, so concurrent writers of one tenant stop queueing (issue 19).
 *
 * Until now every write of a tenant ended by locking the tenant's single `lexical_corpus` row in
 * its commit-time trigger and held it until the commit was flushed: eight concurrent writers of
 * one tenant committed one after another (measured: statements waiting 8–25 ms for that row,
 * PostgreSQL's CPU half idle, 123–195 writes/s against a ceiling of 500–670).
 *
 * Now `lexical_corpus` and `lexical_terms` hold up to `STRIPES` rows per tenant (per tenant and
 * term), and the tenant's statistics are their sums. Each change goes to a stripe whose corpus row
 * the transaction has locked (memsvc_lock_lexical_stripe: the lowest one no other transaction
 * holds, unless all are held), and it touches that stripe's term rows only under that lock, so writers never
 * wait on each other's term rows and never take them in opposite orders. A stripe's counts may go
 * negative (a memory counted in one stripe can be removed through another); only the sums mean
 * anything, and readers read sums.
 *
 * The trigger (migration 0008) and the bulk function (0012) are replaced by versions that write
 * to the transaction's stripe and read the tenant's average length from the sums; the values they
 * store are the same as before. Existing rows become stripe 0.
 */
const STRIPES = 16;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE lexical_corpus ADD COLUMN stripe smallint NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE lexical_corpus DROP CONSTRAINT lexical_corpus_pkey, ADD PRIMARY KEY (user_id, stripe)`.execute(db);
  await sql`ALTER TABLE lexical_terms ADD COLUMN stripe smallint NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE lexical_terms DROP CONSTRAINT lexical_terms_pkey, ADD PRIMARY KEY (user_id, term, stripe)`.execute(db);

  // A stripe of the tenant's statistics for this transaction, its corpus row created if missing and
  // locked: the lowest one no other transaction holds, so a tenant written by one writer at a time
  // keeps one row per term (stripe 0) and recall reads what it read before; extra stripes appear
  // only as concurrent commits need them. A stripe another transaction holds is skipped, never
  // waited for; only when all of them are held (16 of the tenant's transactions committing at
  // once) does it wait, for one picked by its transaction id. The existence check before the
  // INSERT matters: an INSERT … ON CONFLICT meeting a row that a transaction in progress has
  // updated waits for that transaction.
  await sql`
    CREATE FUNCTION memsvc_lock_lexical_stripe(tenant text) RETURNS smallint LANGUAGE plpgsql AS $fn$
    DECLARE
      fallback smallint := (txid_current() % ${sql.lit(STRIPES)})::smallint;
    BEGIN
      FOR candidate IN 0..${sql.lit(STRIPES - 1)} LOOP
        PERFORM 1 FROM lexical_corpus WHERE user_id = tenant AND stripe = candidate FOR UPDATE SKIP LOCKED;
        IF FOUND THEN RETURN candidate; END IF;
        IF NOT EXISTS (SELECT 1 FROM lexical_corpus WHERE user_id = tenant AND stripe = candidate) THEN
          INSERT INTO lexical_corpus (user_id, stripe) VALUES (tenant, candidate) ON CONFLICT (user_id, stripe) DO NOTHING;
          PERFORM 1 FROM lexical_corpus WHERE user_id = tenant AND stripe = candidate FOR UPDATE SKIP LOCKED;
          IF FOUND THEN RETURN candidate; END IF;
        END IF;
      END LOOP;
      PERFORM 1 FROM lexical_corpus WHERE user_id = tenant AND stripe = fallback FOR UPDATE;
      RETURN fallback;
    END
    $fn$`.execute(db);

  await sql`
    CREATE OR REPLACE FUNCTION memsvc_index_memory_terms() RETURNS trigger LANGUAGE plpgsql AS $fn$
    DECLARE
      tenant text;
      memory uuid;
      own smallint;
      corpus_documents bigint;
      total_content double precision;
      total_context double precision;
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

      own := memsvc_lock_lexical_stripe(tenant);

      WITH gone AS (DELETE FROM memory_terms WHERE memory_id = memory RETURNING term, content_length, context_length),
      counted AS (
        INSERT INTO lexical_terms (user_id, term, stripe, documents) SELECT tenant, gone.term, own, -1 FROM gone
        ON CONFLICT (user_id, term, stripe) DO UPDATE SET documents = lexical_terms.documents - 1
      )
      SELECT count(*) > 0, coalesce(max(content_length), 0), coalesce(max(context_length), 0)
        INTO removed, removed_content, removed_context FROM gone;

      IF TG_OP = 'DELETE' THEN
        NULL;
      ELSIF NEW.deleted_at IS NULL THEN
        SELECT sum(c.documents), sum(c.total_content_length), sum(c.total_context_length)
          INTO corpus_documents, total_content, total_context FROM lexical_corpus c WHERE c.user_id = tenant;
        average := CASE WHEN corpus_documents > 0 THEN (total_content + 0.5 * total_context) / corpus_documents END;
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
          INSERT INTO lexical_terms (user_id, term, stripe, documents) SELECT tenant, posted.term, own, 1 FROM posted
          ON CONFLICT (user_id, term, stripe) DO UPDATE SET documents = lexical_terms.documents + 1
        )
        SELECT count(*) > 0, coalesce(max(content_length), 0), coalesce(max(context_length), 0)
          INTO added, added_content, added_context FROM posted;
      END IF;

      IF removed OR added THEN
        UPDATE lexical_corpus SET
          documents = lexical_corpus.documents + added::int - removed::int,
          total_content_length = total_content_length + added_content - removed_content,
          total_context_length = total_context_length + added_context - removed_context
        WHERE user_id = tenant AND stripe = own;
      END IF;
      RETURN NULL;
    END
    $fn$`.execute(db);

  await sql`
    CREATE OR REPLACE FUNCTION memsvc_index_memory_terms_bulk(tenant text, memory_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $fn$
    DECLARE
      own smallint;
      corpus record;
    BEGIN
      own := memsvc_lock_lexical_stripe(tenant);
      SELECT coalesce(sum(c.documents), 0) AS documents,
             coalesce(sum(c.total_content_length), 0) AS total_content_length,
             coalesce(sum(c.total_context_length), 0) AS total_context_length
        INTO corpus FROM lexical_corpus c WHERE c.user_id = tenant;

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
        INSERT INTO lexical_terms (user_id, term, stripe, documents)
        SELECT tenant, posted.term, own, count(*) FROM posted GROUP BY posted.term
        ON CONFLICT (user_id, term, stripe) DO UPDATE SET documents = lexical_terms.documents + excluded.documents
      )
      UPDATE lexical_corpus SET
        documents = lexical_corpus.documents + added.documents,
        total_content_length = lexical_corpus.total_content_length + added.content_length,
        total_context_length = lexical_corpus.total_context_length + added.context_length
      FROM (SELECT count(*)::int AS documents, coalesce(sum(content_length::double precision), 0) AS content_length,
                   coalesce(sum(context_length::double precision), 0) AS context_length FROM lengths) AS added
      WHERE lexical_corpus.user_id = tenant AND lexical_corpus.stripe = own AND added.documents > 0;
    END
    $fn$`.execute(db);
}
