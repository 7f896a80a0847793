import { type Kysely, sql } from 'kysely';

/** `load_context` reads a tenant's most important memories: one index range scan, not a sort of the tenant. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX memories_user_importance_idx ON memories (user_id, importance_score DESC, id DESC) WHERE deleted_at IS NULL`.execute(
    db,
  );
}
