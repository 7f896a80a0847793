/**
 * A small circuit breaker: after `failureThreshold` consecutive failures the circuit opens and
 * calls are refused at once for `cooldownMs`, so a dead provider costs a write nothing instead
 * of a timeout. After the cooldown one trial call is let through (half-open): success closes
 * the circuit, failure opens it for another cooldown.
 */
export class CircuitBreaker {
  #consecutiveFailures = 0;
  #openUntil = 0;
  #trialInFlight = false;

  constructor(private readonly options: { failureThreshold: number; cooldownMs: number; now?: () => number }) {}

  /** Whether a call may go ahead now; a caller that is allowed must report its outcome. */
  allow(): boolean {
    if (this.#consecutiveFailures < this.options.failureThreshold) return true;
    if (this.now() < this.#openUntil || this.#trialInFlight) return false;
    this.#trialInFlight = true;
    return true;
  }

  succeeded(): void {
    this.#consecutiveFailures = 0;
    this.#trialInFlight = false;
  }

  failed(): void {
    this.#consecutiveFailures++;
    this.#trialInFlight = false;
    if (this.#consecutiveFailures >= this.options.failureThreshold) this.#openUntil = this.now() + this.options.cooldownMs;
  }

  /**
   * Opens the circuit now, for a full cooldown, whatever the count: a probe that found the
   * provider unreachable (resilient-embedder.ts) spares the writes their own failed attempts.
   */
  trip(): void {
    this.#consecutiveFailures = Math.max(this.#consecutiveFailures, this.options.failureThreshold);
    this.#openUntil = this.now() + this.options.cooldownMs;
  }

  get isOpen(): boolean {
    return this.#consecutiveFailures >= this.options.failureThreshold;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}
