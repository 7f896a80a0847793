/** One WAL position of the primary, and when it was seen there. */
interface PrimaryPosition {
  readonly lsn: bigint;
  readonly firstSeenAt: number;
  lastSeenAt: number;
  /** How many writes had completed when the position was read (RecentWrites' count). */
  writes: number;
}

/** What a standby's replay position means, worked out against the primary's history. */
export interface ReplayStanding {
  /** How old the newest data the standby lacks is, in ms; 0 when it lacks nothing. A lower bound when it is behind the whole history. */
  readonly lagMs: number;
  /**
   * The standby has not replayed even the oldest position kept (it was behind at the first
   * check, or more than an hour of checks ago): `lagMs` is then only a lower bound, and the
   * caller must bound the lag another way before trusting the standby.
   */
  readonly behindHistory: boolean;
  /** Every write counted up to here is visible on the standby. */
  readonly visibleWrites: number;
}

/** Positions kept: one a check, so an hour of checks at 1 s; older ones only sharpen a lag already far past any bound. */
const MAX_POSITIONS = 3600;

/**
 * How far behind a standby is, in time, without trusting `pg_last_xact_replay_timestamp()`: on
 * an idle primary that timestamp keeps ageing although the standby lacks nothing. Instead the
 * primary's flushed WAL position is sampled at every check (with the time and the writes
 * completed so far), and a standby that has replayed up to position R is as old as the last
 * moment the primary was still at or before R. An idle primary does not move, so a standby
 * that has replayed its position lags 0, however long ago the last transaction was.
 *
 * Pure: times come from the caller's clock, positions from the caller's queries.
 */
export class ReplayProgress {
  #positions: PrimaryPosition[] = [];
  #visibleWrites = 0;

  /** The primary had flushed WAL up to `lsn` at `at` (ms), after `writes` writes had completed. */
  primaryAt(lsn: bigint, at: number, writes: number): void {
    const last = this.#positions.at(-1);
    // Not moved (or, after a failover, behind what was seen): the primary is still "at" it.
    if (last && lsn <= last.lsn) {
      last.lastSeenAt = Math.max(last.lastSeenAt, at);
      last.writes = Math.max(last.writes, writes);
      return;
    }
    this.#positions.push({ lsn, firstSeenAt: at, lastSeenAt: at, writes });
    if (this.#positions.length > MAX_POSITIONS) this.#positions.shift();
  }

  /** The standby has replayed up to `lsn`, as seen at `now` (ms). */
  standbyAt(lsn: bigint, now: number): ReplayStanding {
    const positions = this.#positions;
    let reached = -1;
    for (let i = positions.length - 1; i >= 0; i--) {
      if ((positions[i] as PrimaryPosition).lsn <= lsn) {
        reached = i;
        break;
      }
    }
    if (reached < 0) {
      const oldest = positions[0];
      return { lagMs: oldest ? Math.max(0, now - oldest.firstSeenAt) : 0, behindHistory: true, visibleWrites: this.#visibleWrites };
    }
    const position = positions[reached] as PrimaryPosition;
    this.#visibleWrites = Math.max(this.#visibleWrites, position.writes);
    // Older positions can no longer matter: the standby never replays backwards.
    if (reached > 0) this.#positions = positions.slice(reached);
    const lagMs = reached === positions.length - 1 ? 0 : Math.max(0, now - position.lastSeenAt);
    return { lagMs, behindHistory: false, visibleWrites: this.#visibleWrites };
  }
}
