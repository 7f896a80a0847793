import type { Timers } from '@memsvc/core';
import { systemTimers } from './system-timers.js';

/**
 * The time a stopping process has (MEMSVC_SHUTDOWN_TIMEOUT_MS), shared out between its phases:
 * each phase waits until a mark, a fraction of the whole, and what has not settled by then is
 * given up so the next phase still has its time. A container runtime sends SIGKILL after its
 * grace (30 s by default); a stop that waited on a silent socket or a slow collector took 60 s.
 */
export class ShutdownBudget {
  readonly #startedAt: number;

  constructor(
    /** The whole budget, from the signal to exit. */
    readonly totalMs: number,
    private readonly options: {
      /** A monotonic time in ms (default `performance.now`): a stepped wall clock must not stretch the stop. */
      readonly now?: () => number;
      /** How the waits are timed (default: the host's timers). */
      readonly timers?: Timers;
    } = {},
  ) {
    this.#startedAt = this.#now();
  }

  /** Milliseconds left until `fraction` of the budget has passed (0 once it has). */
  msUntil(fraction: number): number {
    return Math.max(0, this.#startedAt + this.totalMs * fraction - this.#now());
  }

  /** Whether `work` settled (either way) before `fraction` of the budget passed; it is not waited on after. */
  async settlesBy(work: Promise<unknown>, fraction: number): Promise<boolean> {
    return settlesWithin(work, this.msUntil(fraction), this.options.timers ?? systemTimers);
  }

  #now(): number {
    return (this.options.now ?? (() => performance.now()))();
  }
}

/** Whether `work` settled (a failure counts) within `ms`. */
export async function settlesWithin(work: Promise<unknown>, ms: number, timers: Timers = systemTimers): Promise<boolean> {
  let timer: ReturnType<Timers['setTimeout']> | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = timers.setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      expired,
    ]);
  } finally {
    if (timer) timers.clearTimeout(timer);
  }
}
