import { type Kysely, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { parseWalPosition } from './wal-position.js';

/** A server's replication role as it reports it. */
export interface StandbyReport {
  /** `pg_is_in_recovery()`: true on a standby; false on a primary, or on a standby since promoted. */
  readonly inRecovery: boolean;
  /** `pg_last_wal_replay_lsn()`: how far it has replayed the primary's WAL (undefined when it is not replaying). */
  readonly replayedTo: bigint | undefined;
  /**
   * How long ago (ms, by the standby's clock) the last transaction it replayed was committed on
   * the primary; undefined when it has replayed none since it started. While the standby lacks
   * WAL, its data is at most this old — an upper bound on its lag (the first transaction it lacks
   * committed after that one), off by the two servers' clock difference.
   */
  readonly lastReplayedAgeMs: number | undefined;
}

/** Asks a server whether it is a standby and how far it has replayed, in one round trip. */
export async function readStandbyReport(db: Kysely<MemsvcDatabase>): Promise<StandbyReport> {
  const result = await sql<{ in_recovery: boolean; replayed_to: string | null; replayed_age_ms: number | string | null }>`
    SELECT pg_is_in_recovery() AS in_recovery, pg_last_wal_replay_lsn()::text AS replayed_to,
           (EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::float8 AS replayed_age_ms`.execute(db);
  const row = result.rows[0];
  const age = row?.replayed_age_ms === null || row?.replayed_age_ms === undefined ? undefined : Number(row.replayed_age_ms);
  return {
    inRecovery: row?.in_recovery === true,
    replayedTo: row?.replayed_to ? parseWalPosition(row.replayed_to) : undefined,
    lastReplayedAgeMs: age === undefined || !Number.isFinite(age) ? undefined : Math.max(0, age),
  };
}

/**
 * How far the primary has flushed its WAL: what a standby can have received. A write's commit
 * is flushed before COMMIT returns — memsvc's sessions on a primary with a read replica run with
 * `synchronous_commit = on` whatever the server's default (openStore) — so a position read after
 * a write completed covers it. (The insert position would cover an asynchronous commit too, but
 * on an idle primary it can stay a page header past anything a standby replays.)
 */
export async function readPrimaryFlushPosition(db: Kysely<MemsvcDatabase>): Promise<bigint> {
  const result = await sql<{ flushed: string }>`SELECT pg_current_wal_flush_lsn()::text AS flushed`.execute(db);
  return parseWalPosition(result.rows[0]?.flushed ?? '');
}

/**
 * The cluster's system identifier (`pg_control_system()`), which a physical standby shares with
 * its primary; undefined when the role may not read it.
 */
export async function readSystemIdentifier(db: Kysely<MemsvcDatabase>): Promise<string | undefined> {
  try {
    const result = await sql<{ id: string }>`SELECT system_identifier::text AS id FROM pg_control_system()`.execute(db);
    return result.rows[0]?.id;
  } catch (error) {
    // 42501 insufficient_privilege: the check is a courtesy, not a requirement.
    if ((error as { code?: unknown }).code === '42501') return undefined;
    throw error;
  }
}
