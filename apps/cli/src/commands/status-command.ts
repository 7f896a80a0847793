import { sql } from 'kysely';
import { readConfig } from '../read-config.js';
import { openConfiguredStore } from './open-configured-store.js';

/** `memsvc status`: what the database holds and whether it is healthy, as text or JSON. */
export async function statusCommand(options: { json?: boolean }): Promise<void> {
  const { config } = readConfig();
  const store = await openConfiguredStore(config);
  try {
    const health = await store.health();
    const space = await store.vectorSpace.describe();
    const counts = await store.connection.db
      .selectFrom('memories')
      .select(['tier', sql<number>`count(*)::int`.as('live'), sql<number>`count(*) FILTER (WHERE embedding IS NULL)::int`.as('unembedded')])
      .where('deleted_at', 'is', null)
      .groupBy('tier')
      .execute();
    const status = {
      database: store.connection.description,
      engine: store.connection.engine,
      profile: config.profile,
      healthy: health.database && health.pgvector,
      pgvector: health.pgvectorVersion ?? null,
      vectorSpace: space ?? null,
      memories: Object.fromEntries(counts.map((row) => [row.tier, { live: row.live, withoutVector: row.unembedded }])),
    };
    if (options.json) {
      process.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
      return;
    }
    const lines = [
      `database   ${status.database} (${status.engine})`,
      `profile    ${status.profile}`,
      `health     ${status.healthy ? 'ok' : `DOWN: ${health.error}`}`,
      `pgvector   ${status.pgvector ?? 'missing'}`,
      `vectors    ${space ? `${space.dimensions} dimensions${space.model ? ` (${space.model})` : ''}, HNSW index` : 'dimensionality not fixed yet (set by the first vector)'}`,
      `memories   ${['stm', 'ltm'].map((tier) => `${tier} ${status.memories[tier]?.live ?? 0}`).join(', ')}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (!status.healthy) process.exitCode = 1;
  } finally {
    await store.close();
  }
}
