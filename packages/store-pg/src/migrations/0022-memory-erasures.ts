import { type Kysely, sql } from 'kysely';

/**
 * The record of each erasure (issue 43): who erased which memories of a tenant, when, the digest
 * of their ids and what was removed where. It is the one place the erased ids stay (with the
 * audit's word-free events), so a later check can prove nothing else of them remains. `pending`
 * marks a whole user's erasure still under way (its batches are separate transactions).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE memory_erasures (
      id          uuid PRIMARY KEY,
      user_id     text NOT NULL,
      actor       text NOT NULL,
      erased_at   timestamptz NOT NULL,
      state       text NOT NULL CHECK (state IN ('pending', 'completed')),
      whole_user  boolean NOT NULL DEFAULT false,
      memory_ids  uuid[] NOT NULL,
      digest      text NOT NULL,
      counts      jsonb NOT NULL
    )`.execute(db);
  // Which erasure took a memory is asked within its tenant (a restore, a second erase): a tenant has
  // few erasures, so its rows are read by tenant and their id arrays searched, with no GIN to keep.
  await sql`CREATE INDEX memory_erasures_user_idx ON memory_erasures (user_id, erased_at)`.execute(db);
}
