import { type Kysely, sql } from 'kysely';

/**
 * What lets an erasure's check find its quotes put back (issue 51). A later memory's search
 * context quotes earlier ones by copy; once erased, their words are nowhere to look for, so the
 * record keeps a salted SHA-256 of every quote the erased memories' versions could have left
 * (`<length>:<hex>`, the salt random per erasure): the check hashes what each "after: " in a
 * search context starts with and compares. A fingerprint confirms a guessed quote, whole; it
 * gives back no word. Records made before this have none, and check search contexts as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE memory_erasures ADD COLUMN quote_salt text`.execute(db);
  await sql`ALTER TABLE memory_erasures ADD COLUMN quote_fingerprints text[] NOT NULL DEFAULT '{}'`.execute(db);
}
