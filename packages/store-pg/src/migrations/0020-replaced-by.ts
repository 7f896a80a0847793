import { type Kysely, sql } from 'kysely';

/**
 * A memory a newer one changed ("I live in Paris", then "I moved to Berlin") stays visible but
 * carries the id of the memory that replaced it, so recall can put the replacement first and
 * label the older one (issue 38). Nullable with no default: adding it rewrites no row. No
 * foreign key: the replacement may be purged later, and the older memory keeps the id it names,
 * as memory_links keep a purged target's locator.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE memories ADD COLUMN replaced_by uuid`.execute(db);
}
