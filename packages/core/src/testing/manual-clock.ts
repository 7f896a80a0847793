import type { Clock } from '../ports/clock.js';

/** A Clock that moves only when told to, for tests of anything time-based. */
export class ManualClock implements Clock {
  #now: number;

  constructor(start: Date | string | number = '2026-01-01T00:00:00.000Z') {
    this.#now = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#now);
  }

  /** Moves time forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.#now += ms;
  }

  /** Jumps to an instant. */
  set(instant: Date | string | number): void {
    this.#now = new Date(instant).getTime();
  }
}
