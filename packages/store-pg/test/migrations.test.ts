import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import {
  HNSW_SHARD_INDEX_NAMES,
  KNOWN_MIGRATIONS,
  migrateToLatest,
  migrateUpTo,
  openDatabase,
  pendingMigrations,
  type StoreConnection,
  vectorShardOf,
} from '../src/index.js';
import { MIGRATION_TABLE } from '../src/migrations/migrate.js';
import { describeEachEngine } from './support/each-engine.js';

/** The advisory-lock key Kysely's Migrator takes on PostgreSQL (its postgres-adapter.js). */
const KYSELY_MIGRATION_LOCK = 3853314791062309107n;

const EXPECTED_TABLES = [
  'api_keys',
  'jwt_denylist',
  'lexical_corpus',
  'lexical_terms',
  'memories',
  'memory_audit',
  'memory_erasures',
  'memory_grant_defaults',
  'memory_grants',
  'memory_import_ledger',
  'memory_links',
  'memory_terms',
  'oauth_clients',
  'oauth_codes',
  'oauth_pending_authorizations',
  'oauth_refresh_families',
  'oauth_refresh_tokens',
  'oauth_states',
  'organization_members',
  'organizations',
  'rate_limit_counters',
  'reindex_jobs',
  'scheduler_state',
  'sessions',
  'user_identities',
  'vector_space',
];

describeEachEngine('migrations', (engine) => {
  const open: StoreConnection[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
  });
  async function connect(url?: string) {
    const connection = await openDatabase(url ?? (await engine.freshDatabaseUrl()));
    open.push(connection);
    return connection;
  }

  it('creates every table the spec keeps in the database, with pgvector enabled', async () => {
    const { db } = await connect();
    expect(await migrateToLatest(db as never)).toEqual(KNOWN_MIGRATIONS);

    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_name NOT LIKE 'memsvc_migration%' ORDER BY table_name`.execute(db);
    expect(tables.rows.map((row) => row.table_name)).toEqual(EXPECTED_TABLES);
    const extension = await sql<{ extname: string }>`SELECT extname FROM pg_extension WHERE extname = 'vector'`.execute(db);
    expect(extension.rows).toHaveLength(1);
  });

  it('creates the impact-ordered postings index and the one-running-reindex-job guard', async () => {
    const { db } = await connect();
    await migrateToLatest(db as never);
    const indexes = await sql<{ indexname: string; indexdef: string }>`
      SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'`.execute(db);
    const byName = new Map(indexes.rows.map((row) => [row.indexname, row.indexdef]));
    expect(byName.get('memory_terms_impact_idx')).toMatch(/\(user_id, term, impact DESC\) INCLUDE \(memory_id/);
    // No tsvector column and no GIN index left to maintain on every write.
    expect([...byName.values()].filter((definition) => /USING gin/.test(definition))).toEqual([]);
    expect(byName.get('reindex_jobs_one_running_idx')).toMatch(/UNIQUE INDEX .* WHERE \(state = 'running'::text\)/);

    const job = (id: string) => ({ id, state: 'running' as const, params: '{}' });
    await db.insertInto('reindex_jobs').values(job('00000000-0000-7000-8000-000000000001')).execute();
    await expect(db.insertInto('reindex_jobs').values(job('00000000-0000-7000-8000-000000000002')).execute()).rejects.toThrow(
      /reindex_jobs_one_running_idx/,
    );
  });

  it('is idempotent: a second run applies nothing and keeps the data', async () => {
    const url = await engine.freshDatabaseUrl();
    const { db } = await connect(url);
    await migrateToLatest(db as never);
    await db.insertInto('scheduler_state').values({ job_name: 'stm-sweep', cursor: 'abc' }).execute();

    expect(await migrateToLatest(db as never)).toEqual([]);
    const applied = await sql<{ name: string }>`SELECT name FROM ${sql.table(MIGRATION_TABLE)}`.execute(db);
    expect(applied.rows.map((row) => row.name)).toEqual(KNOWN_MIGRATIONS);
    expect(await db.selectFrom('scheduler_state').select('cursor').executeTakeFirst()).toEqual({ cursor: 'abc' });
  });

  it('opens an up-to-date database without the migration lock, and still refuses one a newer version migrated', async () => {
    const url = await engine.freshDatabaseUrl();
    const { db } = await connect(url);
    await migrateToLatest(db as never);
    expect(await pendingMigrations(db as never)).toEqual([]);

    if (engine.supportsSecondConnection) {
      // Another process holding the migrator's lock (Kysely's own key) for as long as it likes:
      // a server starting on an up-to-date database must not wait for it.
      const holder = await connect(url);
      await holder.db.connection().execute(async (connection) => {
        await sql`SELECT pg_advisory_lock(${sql.lit(KYSELY_MIGRATION_LOCK)})`.execute(connection);
        try {
          // Bounded, so a regression fails here at once instead of waiting out the Migrator's hour-long lock timeout.
          const waited = new Promise((_, reject) => setTimeout(() => reject(new Error('waited for the migration lock')), 10_000).unref());
          expect(await Promise.race([migrateToLatest(db as never), waited])).toEqual([]);
        } finally {
          await sql`SELECT pg_advisory_unlock(${sql.lit(KYSELY_MIGRATION_LOCK)})`.execute(connection);
        }
      });
    }

    // A migration this version does not know: the database belongs to a newer memsvc.
    await sql`INSERT INTO ${sql.table(MIGRATION_TABLE)} (name, timestamp) VALUES ('9999-from-the-future', now()::text)`.execute(db);
    expect(await pendingMigrations(db as never)).toEqual([]);
    await expect(migrateToLatest(db as never)).rejects.toThrow(/9999-from-the-future/);
  });

  it('lists the migrations a database still lacks', async () => {
    const { db } = await connect();
    expect(await pendingMigrations(db as never)).toEqual(KNOWN_MIGRATIONS);
    await migrateUpTo(db as never, KNOWN_MIGRATIONS[2]);
    expect(await pendingMigrations(db as never)).toEqual(KNOWN_MIGRATIONS.slice(3));
  });

  it('lets replicas migrate at the same time: each migration is applied exactly once', async () => {
    const url = await engine.freshDatabaseUrl();
    // Two independent pools stand for two replicas booting together; PGlite has one connection,
    // so there the two runs share it and queue, which must also work.
    const first = await connect(url);
    const second = engine.supportsSecondConnection ? await connect(url) : first;
    const results = await Promise.all([migrateToLatest(first.db as never), migrateToLatest(second.db as never)]);

    expect(results.flat().sort()).toEqual([...KNOWN_MIGRATIONS].sort());
    const applied = await sql<{ count: number }>`SELECT count(*)::int AS count FROM ${sql.table(MIGRATION_TABLE)}`.execute(first.db);
    expect(applied.rows[0]?.count).toBe(KNOWN_MIGRATIONS.length);
  });

  it('upgrades a database with one HNSW index to the tenant shard indexes, with the same settings', async () => {
    const { db } = await connect();
    await migrateUpTo(db as never, '0005-job-bookkeeping');
    // The schema as the previous version left it once its first vector had fixed the size.
    await db.insertInto('vector_space').values({ dimensions: 3, model: 'm', hnsw_m: 12, hnsw_ef_construction: null }).execute();
    await sql`ALTER TABLE memories ALTER COLUMN embedding TYPE vector(3)`.execute(db);
    await sql`CREATE INDEX memories_embedding_hnsw_idx ON memories USING hnsw (embedding vector_cosine_ops) WITH (m = 12)`.execute(db);
    const tenants = ['alice', 'bob', 'carol', 'dave', 'ユーザー', '🦊'];
    await db
      .insertInto('memories')
      .values(
        tenants.map((tenant, i) => ({
          id: `00000000-0000-7000-8000-0000000000${String(i).padStart(2, '0')}`,
          user_id: tenant,
          tier: 'ltm' as const,
          content: `fact of ${tenant}`,
          content_hash: `h${i}`,
          metadata: '{}',
          embedding: `[1,${i},0]`,
        })),
      )
      .execute();

    expect(await migrateToLatest(db as never)).toEqual([
      '0006-vector-shards',
      '0007-full-text-no-pending-list',
      '0008-lexical-index',
      '0009-sessions-by-user',
      '0010-unlogged-rate-limit-counters',
      '0011-import-ledger',
      '0012-bulk-lexical-index',
      '0013-marker-indexes',
      '0014-sessions-by-api-key',
      '0015-striped-lexical-statistics',
      '0016-api-key-parents',
      '0017-keys-made-in-sessions',
      '0018-identity-link-controls',
      '0019-audit-by-time',
      '0020-replaced-by',
      '0021-oauth-authorization-server',
      '0022-memory-erasures',
      '0023-memory-grants',
      '0024-erasure-quote-fingerprints',
    ]);
    const indexes = await sql<{ indexname: string; indexdef: string }>`
      SELECT indexname, indexdef FROM pg_indexes WHERE indexname LIKE 'memories_embedding_hnsw%' ORDER BY indexname`.execute(db);
    expect(indexes.rows.map((row) => row.indexname)).toEqual(HNSW_SHARD_INDEX_NAMES);
    for (const row of indexes.rows) expect(row.indexdef).toMatch(/USING hnsw \(embedding vector_cosine_ops\) WITH \(m='?12'?\) WHERE/);
    const shards = await db.selectFrom('memories').select(['user_id', 'vector_shard', 'embedding']).execute();
    expect(shards).toHaveLength(tenants.length);
    for (const row of shards) {
      expect(row.vector_shard).toBe(vectorShardOf(row.user_id));
      expect(row.embedding).not.toBeNull();
    }
    // The rows written before the lexical index are in it: one document per tenant, its terms counted.
    // (Whether an emoji is a word depends on the engine's locale, so the lengths are not compared.)
    const corpus = await db.selectFrom('lexical_corpus').select(['user_id', 'documents']).orderBy('user_id').execute();
    expect(corpus).toEqual([...tenants].sort().map((tenant) => ({ user_id: tenant, documents: 1 })));
    const fact = await db
      .selectFrom('lexical_terms')
      .select(['user_id', 'documents'])
      .where('term', '=', 'fact')
      .orderBy('user_id')
      .execute();
    expect(fact).toEqual([...tenants].sort().map((tenant) => ({ user_id: tenant, documents: 1 })));
  });

  it('enforces the tier/expiry rule in the schema itself', async () => {
    const { db } = await connect();
    await migrateToLatest(db as never);
    const row = { id: '00000000-0000-7000-8000-0000000000aa', user_id: 'u', content: 'x', content_hash: 'h', metadata: '{}' };
    await expect(
      db
        .insertInto('memories')
        .values({ ...row, tier: 'stm', expires_at: null })
        .execute(),
    ).rejects.toThrow(/memories_expiry_matches_tier/);
    await expect(
      db
        .insertInto('memories')
        .values({ ...row, tier: 'ltm', expires_at: new Date() })
        .execute(),
    ).rejects.toThrow(/memories_expiry_matches_tier/);
  });
});
