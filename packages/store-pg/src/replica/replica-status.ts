/**
 * Where a read replica stands:
 * - `ready`: a hot standby within the lag bound; it serves reads;
 * - `lagging`: a standby further behind than the bound (or not heard from for that long);
 * - `unavailable`: not answering (down, restarting, unreachable), or failing its reads;
 * - `promoted`: no longer a standby — promoted, or DATABASE_READ_URL now names a primary: its
 *   data may diverge from the primary's, so it serves nothing until it is a standby again.
 */
export type ReplicaState = 'ready' | 'lagging' | 'unavailable' | 'promoted';

/** Why a read went where it went (the `reason` label of memsvc_replica_reads_total). */
export type ReadReason =
  /** Served by the standby. */
  | 'caught-up'
  /** The tenant wrote recently and the standby may not show it yet (read-your-writes). */
  | 'recent-write'
  | 'lagging'
  | 'unavailable'
  | 'promoted'
  /** The standby was routed to and failed; the primary answered instead. */
  | 'replica-error';

/** Which server served a read, and why. */
export interface ReadRoute {
  readonly target: 'replica' | 'primary';
  readonly reason: ReadReason;
}

/** The replica as last checked, for health output and metrics. */
export interface ReplicaStatus {
  readonly state: ReplicaState;
  /** How far behind the primary it was at the last check, in seconds; undefined when it could not be measured. */
  readonly lagSeconds: number | undefined;
  /** When it was last checked successfully; undefined before the first success. */
  readonly checkedAt: Date | undefined;
  /** Why it is not `ready`, in words for an operator (never a URL). */
  readonly problem: string | undefined;
}

/** What a read replica tells its host (the runtime turns these into metrics and log lines). */
export interface ReplicaEvents {
  /** Every routed read, once it has been served. */
  readonly onRead?: (route: ReadRoute) => void;
  /** Something an operator should know: the standby lagging, unavailable, promoted, or failing reads. Once per change, not per read. */
  readonly onWarning?: (message: string, details: Readonly<Record<string, unknown>>) => void;
  /** The standby serves reads again after a warning. */
  readonly onRecovered?: (message: string, details: Readonly<Record<string, unknown>>) => void;
}
