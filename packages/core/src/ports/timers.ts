/** A pending timer, as `Timers.setTimeout` returns it. */
export interface TimerHandle {
  /** Lets the process exit while only this timer is pending (Node's timers have it). */
  unref?(): void;
}

/**
 * How background work waits: the host's timers in production, a manual double in tests (so a
 * scheduler's ticks can be stepped through without sleeping). Paired with a Clock that moves
 * with it.
 */
export interface Timers {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}
