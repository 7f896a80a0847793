import type {
  Actor,
  AuthSweepCounts,
  Clock,
  DecayChange,
  IdGenerator,
  LifecycleStore,
  MemoryRecord,
  MergeOutcome,
  SimilarPair,
  TenantId,
} from '@memsvc/core';
import { type Kysely, sql, type Transaction } from 'kysely';
import { writeAudit } from '../memory/audit-trail.js';
import { hasEmbeddingColumn, isLiveAt, MEMORY_COLUMNS, type MemoryRow, toMemoryRecord, updateMemoryRow } from '../memory/memory-row.js';
import { inSearchTransaction, type SearchSettings } from '../memory/write-transaction.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';

export interface PgLifecycleStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly search: SearchSettings;
}

/** Nearest neighbours looked at per seed memory when looking for near-duplicates. */
const NEIGHBOURS_PER_SEED = 10;

/** The LifecycleStore port: the cross-tenant scans of the scheduled jobs. */
export class PgLifecycleStore implements LifecycleStore {
  constructor(private readonly options: PgLifecycleStoreOptions) {}

  private get db() {
    return this.options.db;
  }

  async deleteExpiredShortTerm(now: Date, limit: number): Promise<number> {
    // Expired rows are gone for every reader already (spec §3.2 rule 5); this reclaims the space.
    const result = await sql`
      DELETE FROM memories WHERE id IN (
        SELECT id FROM memories WHERE tier = 'stm' AND expires_at <= ${now} LIMIT ${limit})`.execute(this.db);
    return Number(result.numAffectedRows ?? 0n);
  }

  async promotionCandidates(query: {
    tenant: TenantId | undefined;
    accessThreshold: number;
    importanceThreshold: number | undefined;
    after: string | undefined;
    limit: number;
  }): Promise<readonly MemoryRecord[]> {
    const rows = await this.db
      .selectFrom('memories')
      .select(MEMORY_COLUMNS)
      .select(hasEmbeddingColumn)
      .where('tier', '=', 'stm')
      .where(isLiveAt(this.options.clock.now()))
      .where('access_count', '>=', query.accessThreshold)
      .$if(query.importanceThreshold !== undefined, (select) => select.where('importance_score', '>=', query.importanceThreshold ?? 0))
      .$if(query.tenant !== undefined, (select) => select.where('user_id', '=', query.tenant ?? ''))
      .$if(query.after !== undefined, (select) => select.where('id', '>', query.after ?? ''))
      .orderBy('id')
      .limit(query.limit)
      .execute();
    return rows.map((row) => toMemoryRecord(row as MemoryRow));
  }

  async decayBatch(after: string | undefined, limit: number): Promise<readonly MemoryRecord[]> {
    const rows = await this.db
      .selectFrom('memories')
      .select(MEMORY_COLUMNS)
      .select(hasEmbeddingColumn)
      .where('tier', '=', 'ltm')
      .where('deleted_at', 'is', null)
      .$if(after !== undefined, (select) => select.where('id', '>', after ?? ''))
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => toMemoryRecord(row as MemoryRow));
  }

  async applyDecay(changes: readonly DecayChange[], actor: Actor): Promise<{ updated: number; pruned: number }> {
    if (changes.length === 0) return { updated: 0, pruned: 0 };
    const now = this.options.clock.now();
    return this.db.transaction().execute(async (trx) => {
      const marks = changes.filter((change) => !change.prune);
      let updated = 0;
      if (marks.length > 0) {
        // One statement for the batch. The version guard leaves a memory edited since the scan
        // read it to the next scan; scores and marks are bookkeeping, so no version bump.
        const result = await sql`
          UPDATE memories AS m SET importance_score = c.score, stale = c.stale
          FROM unnest(${marks.map((c) => c.memory.id)}::uuid[], ${marks.map((c) => c.memory.version)}::int[],
                      ${marks.map((c) => c.importanceScore)}::float8[], ${marks.map((c) => c.stale)}::bool[])
               AS c(id, version, score, stale)
          WHERE m.id = c.id AND m.version = c.version AND m.deleted_at IS NULL`.execute(trx);
        updated = Number(result.numAffectedRows ?? 0n);
      }
      let pruned = 0;
      for (const change of changes.filter((candidate) => candidate.prune)) {
        if (await pruneOne(trx, change, actor, now)) pruned++;
      }
      return { updated, pruned };
    });
  }

  async similarPairs(query: {
    tenant: TenantId | undefined;
    scope: string | undefined;
    minSimilarity: number;
    maxSimilarity: number;
    after: string | undefined;
    seedLimit: number;
  }): Promise<{ pairs: readonly SimilarPair[]; scanned: number; lastSeed: string | undefined }> {
    const mergeable = (alias: string) =>
      sql.raw(`${alias}.tier = 'ltm' AND ${alias}.deleted_at IS NULL AND NOT ${alias}.contradicted
        AND ${alias}.superseded_by IS NULL AND ${alias}.embedding IS NOT NULL`);
    const found = await inSearchTransaction(this.db, this.options.search, async (trx) => {
      const seeds = await sql<{ id: string; vector_shard: number }>`
        SELECT s.id, s.vector_shard FROM memories s
        WHERE ${mergeable('s')}
          ${query.tenant === undefined ? sql`` : sql`AND s.user_id = ${query.tenant}`}
          ${query.scope === undefined ? sql`` : sql`AND s.scope = ${query.scope}`}
          ${query.after === undefined ? sql`` : sql`AND s.id > ${query.after}`}
        ORDER BY s.id LIMIT ${query.seedLimit}`.execute(trx);
      const seedIds = seeds.rows.map((row) => row.id);
      const pairs: { seed_id: string; other_id: string; similarity: number }[] = [];
      // Each seed's nearest neighbours come from its tenant's HNSW shard index (tenant filter,
      // iterative scan); the band and the scope are checked on those few rows. A partial index
      // is used only for a literal shard, so the seeds are searched one shard at a time.
      for (const shard of new Set(seeds.rows.map((row) => Number(row.vector_shard)))) {
        const shardSeeds = seeds.rows.filter((row) => Number(row.vector_shard) === shard).map((row) => row.id);
        const found = await sql<{ seed_id: string; other_id: string; similarity: number }>`
          SELECT s.id AS seed_id, n.id AS other_id, n.similarity
          FROM memories s
          CROSS JOIN LATERAL (
            SELECT m.id, m.scope, 1 - (m.embedding <=> s.embedding) AS similarity
            FROM memories m
            WHERE m.vector_shard = ${sql.lit(shard)} AND m.user_id = s.user_id AND ${mergeable('m')} AND m.id <> s.id
            ORDER BY m.embedding <=> s.embedding
            LIMIT ${NEIGHBOURS_PER_SEED}
          ) n
          WHERE s.id = ANY(${shardSeeds}::uuid[])
            AND n.scope IS NOT DISTINCT FROM s.scope
            AND n.similarity >= ${query.minSimilarity} AND n.similarity < ${query.maxSimilarity}`.execute(trx);
        pairs.push(...found.rows);
      }
      return { seedIds, pairs };
    });
    const memberIds = [...new Set(found.pairs.flatMap((pair) => [pair.seed_id, pair.other_id]))];
    const members = new Map<string, MemoryRecord>();
    if (memberIds.length > 0) {
      const rows = await this.db
        .selectFrom('memories')
        .select(MEMORY_COLUMNS)
        .select(hasEmbeddingColumn)
        .where('id', 'in', memberIds)
        .execute();
      for (const row of rows) members.set(row.id, toMemoryRecord(row as MemoryRow));
    }
    const pairs = found.pairs.flatMap((pair) => {
      const a = members.get(pair.seed_id);
      const b = members.get(pair.other_id);
      return a && b ? [{ a, b, similarity: Number(pair.similarity) }] : [];
    });
    return { pairs, scanned: found.seedIds.length, lastSeed: found.seedIds.at(-1) };
  }

  async mergeCluster(
    canonical: MemoryRecord,
    losers: readonly { memory: MemoryRecord; similarity: number }[],
    tags: readonly string[],
    actor: Actor,
  ): Promise<MergeOutcome> {
    const now = this.options.clock.now();
    const tenant = canonical.userId;
    const members = [canonical, ...losers.map((loser) => loser.memory)];
    return this.db.transaction().execute(async (trx) => {
      const locked = await trx
        .selectFrom('memories')
        .select(['id', 'version', 'contradicted', 'superseded_by', 'deleted_at'])
        .where('user_id', '=', tenant)
        .where(
          'id',
          'in',
          members.map((member) => member.id),
        )
        .orderBy('id')
        .forUpdate()
        .execute();
      const current = new Map(locked.map((row) => [row.id, row]));
      const unchanged = members.every((member) => {
        const row = current.get(member.id);
        return row && row.version === member.version && !row.contradicted && row.superseded_by === null && row.deleted_at === null;
      });
      if (!unchanged) return 'changed-meanwhile';

      const loserIds = losers.map((loser) => loser.memory.id);
      if (tags.length !== canonical.tags.length || tags.some((tag, index) => canonical.tags[index] !== tag)) {
        const after = await updateMemoryRow(trx, tenant, canonical.id, { tags: [...tags] }, true, now);
        await writeAudit(trx, {
          tenant,
          memoryId: canonical.id,
          actor,
          action: 'merge',
          version: after.version,
          before: canonical,
          after: { ...after, mergedMemoryIds: loserIds },
          at: now,
        });
      }
      for (const loser of losers) {
        const after = await updateMemoryRow(trx, tenant, loser.memory.id, { superseded_by: canonical.id }, true, now);
        await writeAudit(trx, {
          tenant,
          memoryId: loser.memory.id,
          actor,
          action: 'merge',
          version: after.version,
          before: loser.memory,
          after: { ...after, mergedInto: canonical.id, similarity: loser.similarity },
          at: now,
        });
      }
      await trx
        .insertInto('memory_links')
        .values(
          losers.map((loser) => ({
            id: this.options.ids.next(),
            user_id: tenant,
            source_memory_id: loser.memory.id,
            target_memory_id: canonical.id,
            target_locator: `id:${canonical.id}`,
            rel_type: 'duplicate-of',
            origin: 'derived' as const,
            score: loser.similarity,
            metadata: '{}',
            created_at: now,
          })),
        )
        .onConflict((conflict) => conflict.columns(['source_memory_id', 'target_locator', 'rel_type']).doNothing())
        .execute();
      return 'merged';
    });
  }

  async sweepAuthStore(now: Date): Promise<AuthSweepCounts> {
    const count = async (
      table:
        | 'sessions'
        | 'oauth_states'
        | 'oauth_pending_authorizations'
        | 'oauth_codes'
        | 'oauth_refresh_families'
        | 'jwt_denylist'
        | 'rate_limit_counters',
    ) => Number((await this.db.deleteFrom(table).where('expires_at', '<=', now).executeTakeFirst()).numDeletedRows);
    // Authorization requests, codes and refresh families are OAuth state too (their tokens go with their family).
    const oauthServer =
      (await count('oauth_pending_authorizations')) + (await count('oauth_codes')) + (await count('oauth_refresh_families'));
    return {
      sessions: await count('sessions'),
      oauthStates: (await count('oauth_states')) + oauthServer,
      deniedJtis: await count('jwt_denylist'),
      rateLimitCounters: await count('rate_limit_counters'),
    };
  }

  async jobCursor(job: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('scheduler_state').select('cursor').where('job_name', '=', job).executeTakeFirst();
    return row?.cursor ?? undefined;
  }

  async saveJobCursor(job: string, cursor: string | undefined): Promise<void> {
    await this.db
      .insertInto('scheduler_state')
      .values({ job_name: job, cursor: cursor ?? null })
      .onConflict((conflict) => conflict.column('job_name').doUpdateSet({ cursor: cursor ?? null, updated_at: sql`now()` }))
      .execute();
  }
}

async function pruneOne(trx: Transaction<MemsvcDatabase>, change: DecayChange, actor: Actor, now: Date): Promise<boolean> {
  const row = await trx
    .updateTable('memories')
    .set((eb) => ({
      deleted_at: now,
      importance_score: change.importanceScore,
      stale: change.stale,
      version: eb('version', '+', 1),
      updated_at: now,
    }))
    .where('user_id', '=', change.memory.userId)
    .where('id', '=', change.memory.id)
    .where('version', '=', change.memory.version)
    .where('deleted_at', 'is', null)
    .where('pinned', '=', false)
    .returning(MEMORY_COLUMNS)
    .returning(hasEmbeddingColumn)
    .executeTakeFirst();
  if (!row) return false;
  const after = toMemoryRecord(row as MemoryRow);
  await writeAudit(trx, {
    tenant: change.memory.userId,
    memoryId: after.id,
    actor,
    action: 'prune',
    version: after.version,
    before: change.memory,
    after: { ...after, importanceScore: change.importanceScore },
    at: now,
  });
  return true;
}
