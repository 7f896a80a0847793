import type { Clock, JobCheckpoint, ReindexRow, ReindexStore, TenantId, VectorWrite } from '@memsvc/core';
import { CheckpointOutOfOrder, JobOwnershipLost } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import pgvector from 'pgvector';
import type { DatabaseEngine } from '../connection/open-database.js';
import { isLiveAt } from '../memory/memory-row.js';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import {
  BACKFILL_SHARD_MIN,
  dropShardIndexesForBackfill,
  dropVectorIndex,
  ensureVectorIndex,
  type NewVectorSpace,
  type PgVectorSpace,
} from '../vector/pg-vector-space.js';

/** Tuning of PgReindexStore; the defaults are what memsvc runs with. */
export interface PgReindexStoreOptions {
  /** A backfill takes a shard's index off only with at least this many memories to embed there (default BACKFILL_SHARD_MIN). */
  readonly backfillShardMinimum?: number;
}

/** The ReindexStore port: batches in id order, vectors and job progress saved in one transaction. */
export class PgReindexStore implements ReindexStore {
  constructor(
    private readonly db: Kysely<MemsvcDatabase>,
    private readonly vectorSpace: PgVectorSpace,
    private readonly clock: Clock,
    private readonly engine: DatabaseEngine,
    private readonly options: PgReindexStoreOptions = {},
  ) {}

  async batch(query: { tenant: TenantId | undefined; after: string | undefined; limit: number }): Promise<readonly ReindexRow[]> {
    const rows = await this.db
      .selectFrom('memories')
      .select(['id', 'user_id', 'content', 'embedding_model'])
      .select(sql<boolean>`embedding IS NOT NULL`.as('has_embedding'))
      .where(isLiveAt(this.clock.now()))
      .$if(query.tenant !== undefined, (select) => select.where('user_id', '=', query.tenant ?? ''))
      .$if(query.after !== undefined, (select) => select.where('id', '>', query.after ?? ''))
      .orderBy('id')
      .limit(query.limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      tenant: row.user_id as TenantId,
      // The same text a write embeds (MemoryEngine.create): the content alone.
      text: row.content,
      hasEmbedding: row.has_embedding,
      embeddingModel: row.embedding_model,
    }));
  }

  async saveBatch(writes: readonly VectorWrite[], checkpoint: JobCheckpoint | undefined): Promise<{ cancelRequested: boolean }> {
    const first = writes[0];
    // Fixes or checks the dimensionality before anything is written (DIMENSION_MISMATCH otherwise).
    if (first) await this.vectorSpace.ensure(first.vector.length, first.model);
    const now = this.clock.now();
    return this.db.transaction().execute(async (trx) => {
      for (const model of new Set(writes.map((write) => write.model))) {
        const group = writes.filter((write) => write.model === model);
        if (writes.some((write) => write.vector.length !== first?.vector.length)) throw new Error('vectors of one batch differ in size');
        // One statement per batch. A vector equal to the stored one is not rewritten: no new row
        // version, no index insert — re-running a reindex over unchanged content costs reads only.
        await sql`
          UPDATE memories AS m
          SET embedding = w.embedding, embedding_model = ${model}, embedded_at = ${now}
          FROM (SELECT unnest(${group.map((write) => write.id)}::uuid[]) AS id,
                       unnest(${group.map((write) => pgvector.toSql(write.vector) as string)}::text[])::vector AS embedding) AS w
          WHERE m.id = w.id AND m.deleted_at IS NULL
            AND (m.embedding IS NULL OR m.embedding <> w.embedding OR m.embedding_model IS DISTINCT FROM ${model})`.execute(trx);
      }
      if (!checkpoint) return { cancelRequested: false };
      // The checkpoint last, after the previous batch's: the job row is locked only from here to
      // COMMIT, and the cursor moves only from where the previous batch left it.
      await checkpoint.ready;
      const { progress } = checkpoint;
      const job = await trx
        .updateTable('reindex_jobs')
        .set({
          cursor: progress.cursor,
          processed: progress.processed,
          indexed: progress.indexed,
          skipped: progress.skipped,
          failed: progress.failed,
          heartbeat_at: sql`now()`,
          updated_at: sql`now()`,
        })
        .where('id', '=', checkpoint.jobId)
        .where('runner_id', '=', checkpoint.runnerId)
        .where('state', '=', 'running')
        .where(sql<boolean>`cursor IS NOT DISTINCT FROM ${checkpoint.previousCursor}::uuid`)
        .returning('cancel_requested')
        .executeTakeFirst();
      if (job) return { cancelRequested: job.cancel_requested };
      const current = await trx
        .selectFrom('reindex_jobs')
        .select(['runner_id', 'state'])
        .where('id', '=', checkpoint.jobId)
        .executeTakeFirst();
      // Throwing rolls the vectors back too: a batch is saved with its checkpoint or not at all.
      if (current?.state === 'running' && current.runner_id === checkpoint.runnerId) {
        throw new CheckpointOutOfOrder(`reindex job ${checkpoint.jobId} is not at the cursor this batch follows`);
      }
      throw new JobOwnershipLost(`reindex job ${checkpoint.jobId} is no longer run by ${checkpoint.runnerId}`);
    });
  }

  dropVectorIndex(next: NewVectorSpace | undefined): Promise<void> {
    return dropVectorIndex(this.db, this.vectorSpace, next);
  }

  prepareBackfill(scope: { tenant: TenantId | undefined }): Promise<boolean> {
    return dropShardIndexesForBackfill(this.db, this.vectorSpace, this.engine, {
      tenant: scope.tenant,
      minimum: this.options.backfillShardMinimum ?? BACKFILL_SHARD_MIN,
    });
  }

  ensureVectorIndex(): Promise<void> {
    return ensureVectorIndex(this.db, this.vectorSpace, this.engine);
  }
}
