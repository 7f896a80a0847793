import { createHash } from 'node:crypto';
import {
  type Actor,
  type Clock,
  ERASURE_PLACES,
  type ErasureCheck,
  type ErasureCounts,
  type ErasureOfMemory,
  type ErasureReceipt,
  type ErasureStore,
  erasedIdsText,
  type IdGenerator,
  MemsvcError,
  type TenantId,
} from '@memsvc/core';
import { type Kysely, type Selectable, sql } from 'kysely';
import { eraseUserGrants, userGrantsRemaining } from '../grants/erase-user-grants.js';
import { isUuid } from '../ids/uuid-v7.js';
import type { MemoryErasuresTable, MemsvcDatabase } from '../schema/database-schema.js';
import { type ErasedRow, eraseRows } from './erase-rows.js';
import { remainingOf } from './erasure-remains.js';
import { memoriesQuoting, newQuoteSalt, quoteFingerprint } from './quote-fingerprints.js';

export interface PgErasureStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

const NONE: ErasureCounts = Object.fromEntries(ERASURE_PLACES.map((place) => [place, 0])) as unknown as ErasureCounts;

/** `sha256:<hex>` of the ids, sorted, one per line (core's erasedIdsText). */
export function erasureDigest(ids: readonly string[]): string {
  return `sha256:${createHash('sha256').update(erasedIdsText(ids)).digest('hex')}`;
}

/** Erasure for good in PostgreSQL and PGlite, recorded in `memory_erasures` (migration 0022). */
export class PgErasureStore implements ErasureStore {
  readonly #db: Kysely<MemsvcDatabase>;
  readonly #clock: Clock;
  readonly #ids: IdGenerator;

  constructor(options: PgErasureStoreOptions) {
    this.#db = options.db;
    this.#clock = options.clock;
    this.#ids = options.ids;
  }

  async erase(tenant: TenantId, ids: readonly string[], actor: Actor): Promise<ErasureReceipt> {
    return this.#db.transaction().execute(async (trx) => {
      const rows = await lockRows(trx, tenant, ids);
      const found = new Set(rows.map((row) => row.id));
      const missing = ids.find((id) => !found.has(id));
      if (missing !== undefined) {
        const earlier = await this.erasureOf(tenant, missing, trx);
        if (earlier) {
          throw new MemsvcError('ERASED', `memory ${missing} was erased for good at ${earlier.erasedAt.toISOString()}`, {
            field: 'memoryIds',
            memoryId: missing,
            erasureId: earlier.erasureId,
          });
        }
        throw new MemsvcError('NOT_FOUND', `memory ${missing} was not found`, { field: 'memoryIds', memoryId: missing });
      }
      const now = this.#clock.now();
      const { counts, quotes } = await eraseRows(trx, tenant, rows, actor, now);
      const sorted = [...ids].sort();
      const salt = newQuoteSalt();
      const record = {
        id: this.#ids.next(),
        user_id: tenant,
        actor: actor.id,
        erased_at: now,
        state: 'completed' as const,
        memory_ids: sorted,
        digest: erasureDigest(sorted),
        counts: JSON.stringify(counts),
        // So the check can find a quote of any version put back, without keeping its words.
        quote_salt: salt,
        quote_fingerprints: [...new Set(quotes.map((quote) => quoteFingerprint(salt, quote)))],
      };
      await trx.insertInto('memory_erasures').values(record).execute();
      return { erasureId: record.id, erasedAt: now, actor: actor.id, memoryIds: sorted, digest: record.digest, counts, state: 'completed' };
    });
  }

  async eraseTenant(tenant: TenantId, actor: Actor, batchSize: number): Promise<ErasureReceipt> {
    // One record for the whole run; a run a killed process left pending is carried on, not restarted.
    const erasureId = await this.#db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`erase-tenant:${tenant}`}))`.execute(trx);
      const pending = await trx
        .selectFrom('memory_erasures')
        .select('id')
        .where('user_id', '=', tenant)
        .where('whole_user', '=', true)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      if (pending) return pending.id;
      const id = this.#ids.next();
      await trx
        .insertInto('memory_erasures')
        .values({
          id,
          user_id: tenant,
          actor: actor.id,
          erased_at: this.#clock.now(),
          state: 'pending',
          whole_user: true,
          memory_ids: [],
          digest: erasureDigest([]),
          counts: JSON.stringify(NONE),
        })
        .execute();
      // Hidden from every read at once: what the next batches have not reached yet is never served.
      await sql`UPDATE memories SET deleted_at = ${this.#clock.now()} WHERE user_id = ${tenant} AND deleted_at IS NULL`.execute(trx);
      // The grants go at once too: a grantee no longer sees the user's space names.
      const grants = await eraseUserGrants(trx, tenant);
      await trx
        .updateTable('memory_erasures')
        .set({ counts: JSON.stringify({ ...NONE, grants }) })
        .where('id', '=', id)
        .execute();
      return id;
    });
    for (;;) {
      const done = await this.#db.transaction().execute(async (trx) => {
        const batch =
          await sql<ErasedRow>`SELECT id, content FROM memories WHERE user_id = ${tenant} ORDER BY id LIMIT ${batchSize} FOR UPDATE`
            .execute(trx)
            .then((result) => result.rows);
        const record = await trx
          .selectFrom('memory_erasures')
          .selectAll()
          .where('id', '=', erasureId)
          .forUpdate()
          .executeTakeFirstOrThrow();
        const before = record.counts as unknown as ErasureCounts;
        if (batch.length === 0) {
          const ids = [...record.memory_ids].sort();
          // A grant made while the run was under way goes with the rest.
          const grants = (before.grants ?? 0) + (await eraseUserGrants(trx, tenant));
          await trx
            .updateTable('memory_erasures')
            .set({ state: 'completed', digest: erasureDigest(ids), memory_ids: ids, counts: JSON.stringify({ ...before, grants }) })
            .where('id', '=', erasureId)
            .execute();
          return true;
        }
        const { counts } = await eraseRows(trx, tenant, batch, actor, this.#clock.now());
        const summed = Object.fromEntries(ERASURE_PLACES.map((place) => [place, (before[place] ?? 0) + counts[place]]));
        await trx
          .updateTable('memory_erasures')
          .set({ memory_ids: [...record.memory_ids, ...batch.map((row) => row.id)], counts: JSON.stringify(summed) })
          .where('id', '=', erasureId)
          .execute();
        return false;
      });
      if (done) break;
    }
    const record = await this.#db.selectFrom('memory_erasures').selectAll().where('id', '=', erasureId).executeTakeFirstOrThrow();
    return toReceipt(record);
  }

  async erasureOf(tenant: TenantId, id: string, db: Kysely<MemsvcDatabase> = this.#db): Promise<ErasureOfMemory | undefined> {
    const row = await db
      .selectFrom('memory_erasures')
      .select(['id', 'erased_at'])
      .where('user_id', '=', tenant)
      .where((eb) =>
        eb.or([
          ...(isUuid(id) ? [eb(sql`memory_ids`, '@>', sql`ARRAY[${id}]::uuid[]`)] : []),
          eb.and([eb('whole_user', '=', true), eb('state', '=', 'pending')]),
        ]),
      )
      .orderBy('erased_at', 'desc')
      .executeTakeFirst();
    return row ? { erasureId: row.id, erasedAt: row.erased_at } : undefined;
  }

  async check(tenant: TenantId, erasureId: string): Promise<ErasureCheck | undefined> {
    if (!isUuid(erasureId)) return undefined;
    const record = await this.#db
      .selectFrom('memory_erasures')
      .selectAll()
      .where('id', '=', erasureId)
      .where('user_id', '=', tenant)
      .executeTakeFirst();
    if (!record) return undefined;
    const digestMatches = erasureDigest(record.memory_ids) === record.digest;
    const remaining = {
      ...(await remainingOf(this.#db, tenant, record.memory_ids)),
      searchContexts: await memoriesQuoting(this.#db, tenant, record.quote_salt, record.quote_fingerprints),
      grants: record.whole_user ? await userGrantsRemaining(this.#db, tenant, record.erased_at) : 0,
    };
    const clean = ERASURE_PLACES.every((place) => remaining[place] === 0);
    return { erasureId, verified: digestMatches && clean && record.state === 'completed', digestMatches, remaining };
  }
}

/** The tenant's rows of these ids, whatever their state, locked for the erasure. */
async function lockRows(trx: Kysely<MemsvcDatabase>, tenant: TenantId, ids: readonly string[]): Promise<ErasedRow[]> {
  const uuids = ids.filter(isUuid);
  if (uuids.length === 0) return [];
  const { rows } = await sql<ErasedRow>`
    SELECT id, content FROM memories WHERE user_id = ${tenant} AND id = ANY(${uuids}::uuid[]) ORDER BY id FOR UPDATE`.execute(trx);
  return rows;
}

function toReceipt(row: Selectable<MemoryErasuresTable>): ErasureReceipt {
  return {
    erasureId: row.id,
    erasedAt: row.erased_at,
    actor: row.actor,
    memoryIds: [...row.memory_ids].sort(),
    digest: row.digest,
    counts: row.counts as unknown as ErasureCounts,
    state: row.state,
  };
}
