import { describeError } from './unreachable-errors.js';

/**
 * Reads failing in a row on a standby that still answers its checks (no connection lost: a
 * missing relation, a permission, recovery conflicts on every query) before it serves no reads
 * for a pause. Each such read costs the standby's failure and then the primary's answer.
 */
export const FAILED_READS_BEFORE_PAUSE = 5;
/** The first pause; a pause followed by more failing reads doubles the next, up to the longest. */
export const FIRST_READ_PAUSE_MS = 5_000;
const LONGEST_READ_PAUSE_MS = 60_000;

/**
 * When a standby whose reads keep failing serves none for a while: after FAILED_READS_BEFORE_PAUSE
 * failures in a row, a pause of 5 s, doubled after each pause that more failures follow, up to
 * 60 s; a read that succeeds starts the count and the growth over. Times are the monitor's
 * elapsed milliseconds.
 */
export class FailingReadPause {
  #failedInARow = 0;
  #nextPauseMs = FIRST_READ_PAUSE_MS;
  #pausedUntil: number | undefined;
  #problem: string | undefined;

  paused(now: number): boolean {
    return this.#pausedUntil !== undefined && now < this.#pausedUntil;
  }

  /** Why reads are paused, for the replica's status. */
  get problem(): string | undefined {
    return this.#problem;
  }

  /** Counts a failed read; true when it starts a pause. */
  readFailed(now: number, error: unknown): boolean {
    if (++this.#failedInARow < FAILED_READS_BEFORE_PAUSE) return false;
    const pauseMs = this.#nextPauseMs;
    this.#pausedUntil = now + pauseMs;
    this.#nextPauseMs = Math.min(LONGEST_READ_PAUSE_MS, pauseMs * 2);
    this.#failedInARow = 0;
    this.#problem = `its reads fail (${FAILED_READS_BEFORE_PAUSE} in a row, the last: ${describeError(error)}); it is tried again in ${pauseMs / 1000} s`;
    return true;
  }

  readSucceeded(): void {
    this.#failedInARow = 0;
    this.#nextPauseMs = FIRST_READ_PAUSE_MS;
  }
}
