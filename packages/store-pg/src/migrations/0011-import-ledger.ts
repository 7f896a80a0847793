import { type Kysely, sql } from 'kysely';

/**
 * The import ledger (issue 17): which memory each imported section of an agent's file became,
 * and what was written, so a re-import skips, updates or reports instead of duplicating. Keyed
 * by tenant, source, imported folder, file and section anchor. A memory purged for good takes
 * its ledger rows with it (the next import creates it again); a soft-deleted one keeps them, so
 * the import reports the deletion instead of undoing it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE memory_import_ledger (
      user_id        text NOT NULL,
      source         text NOT NULL,
      root           text NOT NULL,
      file           text NOT NULL,
      section        text NOT NULL,
      memory_id      uuid NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
      fingerprint    text NOT NULL,
      memory_version integer NOT NULL,
      imported_at    timestamptz NOT NULL,
      PRIMARY KEY (user_id, source, root, file, section)
    )`.execute(db);
  // The cascade from a purged memory looks its rows up by memory.
  await sql`CREATE INDEX memory_import_ledger_memory_idx ON memory_import_ledger (memory_id)`.execute(db);
}
