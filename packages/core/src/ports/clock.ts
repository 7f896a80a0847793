/** The source of "now". Core never reads the wall clock itself, so time-based rules are testable. */
export interface Clock {
  /** The current instant. */
  now(): Date;
}
