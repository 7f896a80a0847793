import { type IdGenerator, MemsvcError, type ReindexJob, type ReindexJobQueue, type ReindexOptions, type TenantId } from '@memsvc/core';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { MemsvcDatabase, ReindexJobsTable } from '../schema/database-schema.js';

type JobRow = Selectable<ReindexJobsTable>;

/** The most jobs one `recent` read returns. */
export const RECENT_JOBS_MAX = 200;

/**
 * Reindex jobs as rows, shared by every worker. One running job at a time is enforced by the
 * database (a unique index over running jobs), not by whoever happens to check first.
 */
export class PgReindexJobQueue implements ReindexJobQueue {
  constructor(
    private readonly db: Kysely<MemsvcDatabase>,
    private readonly ids: IdGenerator,
  ) {}

  async enqueue(options: ReindexOptions, requestedBy: string): Promise<ReindexJob> {
    const row = await this.db
      .insertInto('reindex_jobs')
      .values({
        id: this.ids.next(),
        state: 'queued',
        user_id: options.tenant ?? null,
        params: JSON.stringify(options) as never,
        cursor: options.cursor ?? null,
        requested_by: requestedBy,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toJob(row);
  }

  async find(jobId: string): Promise<ReindexJob | undefined> {
    const row = await this.db.selectFrom('reindex_jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
    return row ? toJob(row) : undefined;
  }

  /**
   * The newest jobs, newest first. Ids are UUIDv7 (creation order), so the primary key serves the
   * order and the limit: the read stays one short index scan however many jobs have run.
   */
  async recent(limit: number): Promise<readonly ReindexJob[]> {
    const bounded = Math.max(1, Math.min(Math.trunc(limit), RECENT_JOBS_MAX));
    const rows = await this.db.selectFrom('reindex_jobs').selectAll().orderBy('id', 'desc').limit(bounded).execute();
    return rows.map(toJob);
  }

  async requestCancel(jobId: string): Promise<ReindexJob> {
    const row = await this.db
      .updateTable('reindex_jobs')
      .set({
        state: sql`CASE WHEN state = 'queued' THEN 'cancelled' ELSE state END`,
        finished_at: sql`CASE WHEN state = 'queued' THEN now() ELSE finished_at END`,
        cancel_requested: true,
        updated_at: sql`now()`,
      })
      .where('id', '=', jobId)
      .where('state', 'in', ['queued', 'running'])
      .returningAll()
      .executeTakeFirst();
    return row ? toJob(row) : this.conflict(jobId, 'cancelled');
  }

  async retry(jobId: string): Promise<ReindexJob> {
    const row = await this.db
      .updateTable('reindex_jobs')
      .set({ state: 'queued', cancel_requested: false, error: null, runner_id: null, finished_at: null, updated_at: sql`now()` })
      .where('id', '=', jobId)
      .where('state', 'in', ['failed', 'cancelled'])
      .returningAll()
      .executeTakeFirst();
    return row ? toJob(row) : this.conflict(jobId, 'retried');
  }

  async claimNext(runnerId: string): Promise<ReindexJob | undefined> {
    try {
      const row = await this.db
        .updateTable('reindex_jobs')
        .set((eb) => ({
          state: 'running',
          runner_id: runnerId,
          heartbeat_at: sql`now()`,
          started_at: sql`coalesce(started_at, now())`,
          attempts: eb('attempts', '+', 1),
          updated_at: sql`now()`,
        }))
        .where(
          'id',
          '=',
          sql<string>`(SELECT id FROM reindex_jobs WHERE state = 'queued' ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)`,
        )
        .where(sql<boolean>`NOT EXISTS (SELECT 1 FROM reindex_jobs WHERE state = 'running')`)
        .returningAll()
        .executeTakeFirst();
      return row ? toJob(row) : undefined;
    } catch (error) {
      // Two runners claimed different jobs at the same instant: the one-running index refused
      // the second. It simply has nothing to run this time.
      if ((error as { code?: string }).code === '23505') return undefined;
      throw error;
    }
  }

  async heartbeat(jobId: string, runnerId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('reindex_jobs')
      .set({ heartbeat_at: sql`now()` })
      .where('id', '=', jobId)
      .where('runner_id', '=', runnerId)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async release(jobId: string, runnerId: string): Promise<void> {
    await this.db
      .updateTable('reindex_jobs')
      .set({ state: 'queued', runner_id: null, heartbeat_at: null, updated_at: sql`now()` })
      .where('id', '=', jobId)
      .where('runner_id', '=', runnerId)
      .where('state', '=', 'running')
      .execute();
  }

  async finish(jobId: string, runnerId: string, outcome: { state: 'completed' | 'failed' | 'cancelled'; error?: string }): Promise<void> {
    await this.db
      .updateTable('reindex_jobs')
      .set({ state: outcome.state, error: outcome.error ?? null, finished_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', jobId)
      .where('runner_id', '=', runnerId)
      .where('state', '=', 'running')
      .execute();
  }

  async failAbandoned(silentForMs: number): Promise<readonly ReindexJob[]> {
    const rows = await this.db
      .updateTable('reindex_jobs')
      .set({
        state: 'failed',
        error: sql`'its runner stopped answering (no heartbeat for ' || ${Math.round(silentForMs / 1000)} || ' s): retry continues from the saved cursor'`,
        finished_at: sql`now()`,
        updated_at: sql`now()`,
      })
      .where('state', '=', 'running')
      .where(sql<boolean>`heartbeat_at < now() - make_interval(secs => ${silentForMs / 1000})`)
      .returningAll()
      .execute();
    return rows.map(toJob);
  }

  private async conflict(jobId: string, verb: string): Promise<never> {
    const job = await this.find(jobId);
    if (!job) throw new MemsvcError('NOT_FOUND', `reindex job ${jobId} was not found`, { jobId });
    throw new MemsvcError('CONFLICT', `reindex job ${jobId} is ${job.state} and cannot be ${verb}`, { jobId, state: job.state });
  }
}

function toJob(row: JobRow): ReindexJob {
  const params = (typeof row.params === 'string' ? JSON.parse(row.params) : row.params) as Partial<ReindexOptions>;
  return {
    jobId: row.id,
    state: row.state,
    options: {
      tenant: (row.user_id ?? undefined) as TenantId | undefined,
      batchSize: params.batchSize ?? 100,
      reuseExistingEmbeddings: params.reuseExistingEmbeddings ?? true,
      recreate: params.recreate ?? false,
      cursor: params.cursor,
      maxMemories: params.maxMemories,
    },
    progress: { processed: row.processed, indexed: row.indexed, skipped: row.skipped, failed: row.failed, cursor: row.cursor },
    cancelRequested: row.cancel_requested,
    error: row.error,
    attempts: row.attempts,
    requestedBy: row.requested_by,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    heartbeatAt: row.heartbeat_at,
  };
}
