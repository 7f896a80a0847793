const REDACTED = '[REDACTED]';

/**
 * A configuration value that must never reach a log line, an error message or a tool result.
 * Every way a value gets printed — string conversion, JSON serialisation (which is how pino
 * writes objects), Node's `util.inspect` — yields `[REDACTED]`. Only `reveal()` returns the
 * value, so every place that uses a secret is greppable.
 */
export class Secret<T = string> {
  readonly #value: T;

  constructor(value: T) {
    this.#value = value;
  }

  /** The secret value itself. Call it only where the value is used, never where it is printed. */
  reveal(): T {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  // Node's util.inspect (console.log, assertion messages) looks this symbol up by its registry
  // key, so core can hide the value without importing node:util.
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return REDACTED;
  }
}

/** True when a value is a Secret, for serialisers that walk arbitrary objects. */
export function isSecret(value: unknown): value is Secret<unknown> {
  return value instanceof Secret;
}
