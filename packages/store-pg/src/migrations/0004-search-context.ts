import { type Kysely, sql } from 'kysely';

/**
 * Words a memory is found by without being part of what it says: for an ingested conversation
 * turn, the turn before it, its speaker and the conversation's date, so a question finds the
 * answer even when the question's words are only in the turn that asked it. Full-text search
 * covers content and context; reads return the content only. Re-creating the generated column
 * rewrites the table, which is cheap before the first release and a one-off after.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE memories ADD COLUMN search_context text`.execute(db);
  await sql`ALTER TABLE memories DROP COLUMN search_vector`.execute(db);
  await sql`
    ALTER TABLE memories ADD COLUMN search_vector tsvector
      GENERATED ALWAYS AS (to_tsvector('english', content || ' ' || coalesce(search_context, ''))) STORED`.execute(db);
  await sql`CREATE INDEX memories_search_idx ON memories USING gin (search_vector)`.execute(db);
}
