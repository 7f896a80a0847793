import { type Kysely, sql } from 'kysely';

/** What the installed pgvector can do; PGlite's bundled build and a server's may differ. */
export interface VectorFeatures {
  readonly version: string;
  /** `hnsw.iterative_scan` (pgvector ≥ 0.8.0). */
  readonly iterativeScan: boolean;
}

/** Reads the pgvector version from the database (after migrations created the extension). */
export async function detectVectorFeatures(db: Kysely<unknown>): Promise<VectorFeatures> {
  const result = await sql<{ extversion: string }>`SELECT extversion FROM pg_extension WHERE extname = 'vector'`.execute(db);
  const version = result.rows[0]?.extversion ?? '0.0.0';
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return { version, iterativeScan: major > 0 || minor >= 8 };
}
