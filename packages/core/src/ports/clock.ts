/** The source of "now". The engine never reads the wall clock itself, so time-based rules are testable. */
export interface Clock {
  /** The current instant. */
  now(): Date;
}

/** The wall clock, for production: what an app or a library user passes where a Clock is asked for. */
export const systemClock: Clock = { now: () => new Date() };
