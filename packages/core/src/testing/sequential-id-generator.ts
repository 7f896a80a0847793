import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/id-generator.js';

/**
 * Time-ordered ids for tests, in UUIDv7's shape: the clock's milliseconds, then a counter where
 * UUIDv7 has randomness. Deterministic (the same calls give the same ids), and strictly
 * increasing even when a test moves its ManualClock backwards: "newest first" and page cursors
 * rest on ids sorting by creation order, as they do with the production generator.
 */
export class SequentialIdGenerator implements IdGenerator {
  #lastMs = 0;
  #sequence = 0;

  constructor(private readonly clock: Clock) {}

  next(): string {
    // Never behind the last id: a clock set back must not make a newer row sort as older.
    this.#lastMs = Math.max(this.#lastMs, this.clock.now().getTime());
    this.#sequence++;
    const time = this.#lastMs.toString(16).padStart(12, '0');
    // The variant's high bits (10xx) lead the last 64 bits; the counter fills the rest.
    const counter = `8${this.#sequence.toString(16).padStart(15, '0')}`;
    return `${time.slice(0, 8)}-${time.slice(8, 12)}-7000-${counter.slice(0, 4)}-${counter.slice(4)}`;
  }
}
