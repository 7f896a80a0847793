import { openStore, pendingMigrations, usableHnswShardIndexes, VECTOR_SHARDS } from '@memsvc/store-pg';
import { sql } from 'kysely';
import type { CliContext } from '../cli-context.js';
import { assertDatabaseExists } from '../existing-database.js';
import { readConfig } from '../read-config.js';

/**
 * `memsvc status`: what the database holds and whether it is healthy, as text or JSON. It only
 * reads: no migration, and no vector dimensionality fixed from this shell's environment, so it
 * is safe to run against a live server's database and after a model change. A `pglite://<dir>`
 * that holds no database yet is reported as such, not created (opening it would run initdb there).
 */
export async function statusCommand(cli: CliContext, options: { json?: boolean }): Promise<void> {
  const { config } = readConfig(cli.env);
  assertDatabaseExists(config.database.target);
  const store = await openStore({
    database: config.database.target,
    migrate: false,
    pool: { applicationName: 'memsvc-status', maxConnections: 1 },
  });
  try {
    const health = await store.health();
    const pending = await pendingMigrations(store.connection.db as never);
    const migrated = pending.length === 0;
    const space = migrated ? await store.vectorSpace.describe() : undefined;
    const shardIndexes = space ? await usableHnswShardIndexes(store.connection.db) : undefined;
    const counts = migrated
      ? await store.connection.db
          .selectFrom('memories')
          .select([
            'tier',
            sql<number>`count(*)::int`.as('live'),
            sql<number>`count(*) FILTER (WHERE embedding IS NULL)::int`.as('unembedded'),
          ])
          .where('deleted_at', 'is', null)
          .groupBy('tier')
          .execute()
      : [];
    const memories = Object.fromEntries(
      ['stm', 'ltm'].map((tier) => {
        const row = counts.find((count) => count.tier === tier);
        return [tier, { live: row?.live ?? 0, withoutVector: row?.unembedded ?? 0 }];
      }),
    );
    const status = {
      database: store.connection.description,
      engine: store.connection.engine,
      healthy: health.database && health.pgvector,
      pgvector: health.pgvectorVersion ?? null,
      pendingMigrations: pending,
      vectorSpace: space ?? null,
      // Shards without their HNSW index are searched exactly: a reindex is running or was interrupted.
      hnswIndexes: shardIndexes === undefined ? null : { usable: shardIndexes, shards: VECTOR_SHARDS },
      memories,
    };
    if (!status.healthy) cli.exitCode = 1;
    if (options.json) {
      cli.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
      return;
    }
    const lines = [
      `database   ${status.database} (${status.engine})`,
      `health     ${status.healthy ? 'ok' : `DOWN: ${health.error}`}`,
      `pgvector   ${status.pgvector ?? 'not installed in this database'}`,
      `schema     ${migrated ? 'up to date' : `${pending.length} pending migration(s): run memsvc migrate`}`,
      `vectors    ${space ? `${space.dimensions} dimensions${space.model ? ` (${space.model})` : ''}, ${indexLine(shardIndexes ?? 0)}` : 'dimensionality not fixed yet'}`,
      `memories   stm ${memories.stm?.live ?? 0}, ltm ${memories.ltm?.live ?? 0}`,
    ];
    cli.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await store.close();
  }
}

function indexLine(usable: number): string {
  if (usable === VECTOR_SHARDS) return `HNSW index on all ${VECTOR_SHARDS} shards`;
  return (
    `HNSW index on ${usable} of ${VECTOR_SHARDS} shards: the others are searched exactly (slower) — ` +
    'a reindex is running or was interrupted; a completed memsvc-reindex run builds them'
  );
}
