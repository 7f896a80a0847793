import { type Kysely, sql } from 'kysely';

/** Every table of the database, and how many of its rows contain `text` anywhere in any column. */
export async function rowsContaining(db: Kysely<unknown>, text: string): Promise<Record<string, number>> {
  const tables = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(db);
  const found: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(name)} AS t WHERE t::text ILIKE ${`%${text}%`}`.execute(
      db,
    );
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0) found[name] = n;
  }
  return found;
}
