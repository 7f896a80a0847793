import { HNSW_MAX_DIMENSIONS, MemsvcError, type VectorSpace, type VectorSpaceInfo, vectorSpaceMismatch } from '@memsvc/core';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { DatabaseEngine } from '../connection/open-database.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import {
  buildHnswShardIndexesConcurrently,
  createHnswShardIndexes,
  dropHnswShardIndexes,
  type HnswBuildOptions,
  hnswShardIndexName,
} from './vector-shards.js';

export type { HnswBuildOptions } from './vector-shards.js';

// Any constant works; it only has to differ from memsvc's other advisory locks.
const VECTOR_SPACE_LOCK = 7_310_001;

/**
 * The vector column's dimensionality and its HNSW shard indexes, fixed once and then enforced. Fixing
 * it types the column as `vector(n)` and builds the cosine HNSW shard indexes; both happen in one
 * transaction under an advisory lock, so concurrent first writers agree on one size.
 */
export class PgVectorSpace implements VectorSpace {
  /**
   * The settings once known. The dimensionality never changes under a running process except
   * by a full `--recreate` reindex, and a vector of a stale size is refused by the column type
   * itself, so every write need not ask the database again.
   */
  #known: VectorSpaceInfo | undefined;

  constructor(
    private readonly db: Kysely<MemsvcDatabase>,
    readonly hnsw: HnswBuildOptions = {},
  ) {}

  async describe(): Promise<VectorSpaceInfo | undefined> {
    const row = await this.db.selectFrom('vector_space').selectAll().executeTakeFirst();
    this.#known = row ? toInfo(row) : undefined;
    return this.#known;
  }

  /** The settings as last seen by this process, without a query. */
  get cached(): VectorSpaceInfo | undefined {
    return this.#known;
  }

  async ensure(dimensions: number, model: string | null): Promise<VectorSpaceInfo> {
    checkIndexable(dimensions);
    if (this.#known?.dimensions === dimensions) return this.#known;
    const known = await this.describe();
    if (known) return checkMatches(known, dimensions, model);
    this.#known = await this.db.transaction().execute((trx) => this.fixIn(trx, dimensions, model));
    return this.#known;
  }

  /**
   * `ensure`'s work inside the caller's transaction, for a write that must fix the size together
   * with what it writes (an import of vectors into a database that has none): a rollback then
   * leaves the size open. The caller calls `describe` after its commit to refresh `cached`.
   */
  async fixIn(trx: Transaction<MemsvcDatabase>, dimensions: number, model: string | null): Promise<VectorSpaceInfo> {
    checkIndexable(dimensions);
    await sql`SELECT pg_advisory_xact_lock(${VECTOR_SPACE_LOCK})`.execute(trx);
    const row = await trx.selectFrom('vector_space').selectAll().executeTakeFirst();
    if (row) return checkMatches(toInfo(row), dimensions, model);

    await sql`ALTER TABLE memories ALTER COLUMN embedding TYPE vector(${sql.lit(dimensions)})`.execute(trx);
    await createHnswShardIndexes(trx, this.hnsw);
    const inserted = await trx
      .insertInto('vector_space')
      .values({
        dimensions,
        model,
        hnsw_m: this.hnsw.m ?? null,
        hnsw_ef_construction: this.hnsw.efConstruction ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toInfo(inserted);
  }
}

function checkIndexable(dimensions: number): void {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > HNSW_MAX_DIMENSIONS) {
    throw new MemsvcError(
      'DIMENSION_MISMATCH',
      `a vector must have 1 to ${HNSW_MAX_DIMENSIONS} dimensions for the HNSW index (got ${dimensions})`,
      { dimensions },
    );
  }
}

/** Memory for one HNSW build; pgvector builds far faster when the graph fits (its docs' advice). */
const INDEX_BUILD_MEMORY = '256MB';

/** What a recreate sets the vector space to. */
export interface NewVectorSpace {
  readonly dimensions: number;
  readonly model: string;
}

/**
 * Drops the HNSW shard indexes before a recreate. With `next` of another dimensionality, every stored
 * vector is dropped too and the column retyped, so the regenerated vectors fit; the database
 * holds the content they are computed from. One transaction under the vector-space lock.
 */
export async function dropVectorIndex(db: Kysely<MemsvcDatabase>, space: PgVectorSpace, next: NewVectorSpace | undefined): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${VECTOR_SPACE_LOCK})`.execute(trx);
    await dropHnswShardIndexes(trx);
    if (!next) return;
    const row = await trx.selectFrom('vector_space').selectAll().executeTakeFirst();
    if (row?.dimensions !== next.dimensions) {
      await sql`UPDATE memories SET embedding = NULL, embedding_model = NULL, embedded_at = NULL WHERE embedding IS NOT NULL`.execute(trx);
      await sql`ALTER TABLE memories ALTER COLUMN embedding TYPE vector(${sql.lit(next.dimensions)})`.execute(trx);
    }
    await trx
      .insertInto('vector_space')
      .values({
        dimensions: next.dimensions,
        model: next.model,
        hnsw_m: space.hnsw.m ?? null,
        hnsw_ef_construction: space.hnsw.efConstruction ?? null,
      })
      .onConflict((conflict) =>
        conflict.column('id').doUpdateSet({ dimensions: next.dimensions, model: next.model, updated_at: sql`now()` }),
      )
      .execute();
  });
  await space.describe();
}

/**
 * Builds the HNSW shard indexes if the vector space is fixed and any is missing (after a
 * recreate). On PostgreSQL each is built concurrently, so memsvc's writes go on during a
 * rebuild that can take minutes; the vector-space lock is then a session lock on one reserved
 * connection, released when done (or with the session, if the connection dies). PGlite is one
 * connection, where writes wait for any statement, so it builds in one transaction.
 */
export async function ensureVectorIndex(db: Kysely<MemsvcDatabase>, space: PgVectorSpace, engine: DatabaseEngine): Promise<void> {
  const info = await space.describe();
  if (!info) return;
  if (engine === 'pglite') {
    await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${VECTOR_SPACE_LOCK}), set_config('maintenance_work_mem', ${INDEX_BUILD_MEMORY}, true)`.execute(
        trx,
      );
      await createHnswShardIndexes(trx, space.hnsw);
    });
    return;
  }
  await db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(${VECTOR_SPACE_LOCK}), set_config('maintenance_work_mem', ${INDEX_BUILD_MEMORY}, false)`.execute(
      connection,
    );
    try {
      await buildHnswShardIndexesConcurrently(connection, space.hnsw);
    } finally {
      // The connection returns to the pool: leave it as it was. If it broke, the session's end
      // released the lock already.
      await sql`SELECT pg_advisory_unlock(${VECTOR_SPACE_LOCK}), set_config('maintenance_work_mem', NULL, false)`
        .execute(connection)
        .catch(() => undefined);
    }
  });
}

/**
 * A shard whose index a backfill takes off needs at least this many memories without a vector:
 * below it, inserting them into the live graph costs about a second, less than a rebuild's
 * fixed costs (two table scans on PostgreSQL).
 */
export const BACKFILL_SHARD_MIN = 1000;

/**
 * Takes the HNSW index off each shard where the memories without a vector (in `tenant`, or in
 * every tenant) are at least `minimum` (BACKFILL_SHARD_MIN in memsvc) and at least as many as the shard's memories
 * with one. Writing their vectors then inserts into no graph, and ensureVectorIndex builds the
 * shard once: measured here, building a graph costs a fraction of inserting the same rows into a
 * live one. The rows already indexed there are built again; that is why a shard mostly indexed
 * keeps its index. Returns whether any shard was taken off.
 *
 * On PostgreSQL each index is dropped concurrently (writes and searches go on), under the
 * vector-space lock held by one reserved connection, as for the rebuild; PGlite drops in one
 * transaction. Until the rebuild, a search in such a shard is an exact scan of the tenant's rows.
 */
export async function dropShardIndexesForBackfill(
  db: Kysely<MemsvcDatabase>,
  space: PgVectorSpace,
  engine: DatabaseEngine,
  { tenant, minimum }: { readonly tenant: string | undefined; readonly minimum: number },
): Promise<boolean> {
  if (!(await space.describe())) return false;
  // The partial index of unembedded rows answers this cheaply; only a real backfill pays the
  // per-shard count below, which reads the table once.
  const missing = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM memories
    WHERE embedding IS NULL AND deleted_at IS NULL ${tenant === undefined ? sql`` : sql`AND user_id = ${tenant}`}`.execute(db);
  if ((missing.rows[0]?.n ?? 0) < minimum) return false;
  const shards = await sql<{ shard: number; missing: number; indexed: number }>`
    SELECT vector_shard AS shard,
           count(*) FILTER (WHERE embedding IS NULL ${tenant === undefined ? sql`` : sql`AND user_id = ${tenant}`})::int AS missing,
           count(*) FILTER (WHERE embedding IS NOT NULL)::int AS indexed
    FROM memories WHERE deleted_at IS NULL GROUP BY vector_shard`.execute(db);
  const names = shards.rows
    .filter((row) => row.missing >= minimum && row.missing >= row.indexed)
    .map((row) => hnswShardIndexName(row.shard));
  if (names.length === 0) return false;
  if (engine === 'pglite') {
    await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${VECTOR_SPACE_LOCK})`.execute(trx);
      for (const name of names) await sql`DROP INDEX IF EXISTS ${sql.id(name)}`.execute(trx);
    });
    return true;
  }
  await db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(${VECTOR_SPACE_LOCK})`.execute(connection);
    try {
      for (const name of names) await sql`DROP INDEX CONCURRENTLY IF EXISTS ${sql.id(name)}`.execute(connection);
    } finally {
      await sql`SELECT pg_advisory_unlock(${VECTOR_SPACE_LOCK})`.execute(connection).catch(() => undefined);
    }
  });
  return true;
}

function checkMatches(info: VectorSpaceInfo, dimensions: number, model: string | null): VectorSpaceInfo {
  if (info.dimensions === dimensions) return info;
  throw vectorSpaceMismatch(info, dimensions, model);
}

function toInfo(row: {
  dimensions: number;
  model: string | null;
  hnsw_m: number | null;
  hnsw_ef_construction: number | null;
}): VectorSpaceInfo {
  return { dimensions: row.dimensions, model: row.model, hnswM: row.hnsw_m, hnswEfConstruction: row.hnsw_ef_construction };
}
