import { type Kysely, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { parseWalPosition } from './wal-position.js';

/** A server's replication role as it reports it. */
export interface StandbyReport {
  /** `pg_is_in_recovery()`: true on a standby; false on a primary, or on a standby since promoted. */
  readonly inRecovery: boolean;
  /** `pg_last_wal_replay_lsn()`: how far it has replayed the primary's WAL (undefined when it is not replaying). */
  readonly replayedTo: bigint | undefined;
}

/** Asks a server whether it is a standby and how far it has replayed, in one round trip. */
export async function readStandbyReport(db: Kysely<MemsvcDatabase>): Promise<StandbyReport> {
  const result = await sql<{ in_recovery: boolean; replayed_to: string | null }>`
    SELECT pg_is_in_recovery() AS in_recovery, pg_last_wal_replay_lsn()::text AS replayed_to`.execute(db);
  const row = result.rows[0];
  return {
    inRecovery: row?.in_recovery === true,
    replayedTo: row?.replayed_to ? parseWalPosition(row.replayed_to) : undefined,
  };
}

/**
 * How far the primary has flushed its WAL: what a standby can have received. A write's commit
 * is flushed before COMMIT returns, so a position read after a write completed covers it.
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
