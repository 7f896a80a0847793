/**
 * Runs units of work one after another, each to its end, as the SQL stores' write locks do: core's
 * write use case awaits between its steps, and another write of the same tenant must not read
 * candidates in between (two identical writes would then both be stored).
 */
export class WriteQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `work` once every unit queued before it has finished (whether it succeeded or not). */
  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(work, work);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
