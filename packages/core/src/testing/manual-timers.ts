import type { TimerHandle, Timers } from '../ports/timers.js';
import type { ManualClock } from './manual-clock.js';

interface Pending extends TimerHandle {
  readonly due: number;
  readonly order: number;
  readonly callback: () => void;
}

/**
 * Timers that fire only when the test moves its ManualClock with `advance`: each due timer fires
 * at its own instant, in due order, with the clock set to that instant — so "every 400 ms for two
 * seconds" is five steps, not two seconds of sleeping.
 */
export class ManualTimers implements Timers {
  readonly #pending = new Set<Pending>();
  #order = 0;

  constructor(private readonly clock: ManualClock) {}

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const timer: Pending = { due: this.clock.now().getTime() + Math.max(0, ms), order: this.#order++, callback, unref: () => undefined };
    this.#pending.add(timer);
    return timer;
  }

  clearTimeout(handle: TimerHandle): void {
    this.#pending.delete(handle as Pending);
  }

  /** How many timers are waiting. */
  get pending(): number {
    return this.#pending.size;
  }

  /**
   * Moves the clock forward by `ms`, firing every timer that falls due on the way (including
   * ones set by the callbacks, if they fall due in time). Returns how many fired.
   */
  advance(ms: number): number {
    const target = this.clock.now().getTime() + ms;
    let fired = 0;
    for (;;) {
      const next = [...this.#pending].filter((timer) => timer.due <= target).sort((a, b) => a.due - b.due || a.order - b.order)[0];
      if (!next) break;
      this.#pending.delete(next);
      this.clock.set(next.due);
      next.callback();
      fired++;
    }
    this.clock.set(target);
    return fired;
  }
}
