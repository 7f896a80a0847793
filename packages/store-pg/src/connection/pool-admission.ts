import { MemsvcError, type TimerHandle, type Timers } from '@memsvc/core';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

const HOST_TIMERS: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** How long a call waits for a free connection by default before it is refused as busy. */
export const DEFAULT_POOL_QUEUE_TIMEOUT_MS = 30_000;

/** A checked-out client, as node-postgres hands it out: `release(error)` destroys it. */
export interface ReleasableClient extends PostgresPoolClient {
  release(destroy?: boolean | Error): void;
}

/** The pool behind the admission: node-postgres' `Pool` has this shape. */
export interface AdmittedPool {
  connect(): Promise<ReleasableClient>;
  end(): Promise<void>;
}

export interface PoolAdmissionOptions {
  /** The pool's own `max`: at most this many calls hold or are opening a connection at once. */
  readonly maxConnections: number;
  /** How long a call may wait for one of them (default 30 s). */
  readonly queueTimeoutMs?: number;
  /** The host's timers unless a test steps its own. */
  readonly timers?: Timers | undefined;
}

interface Waiter {
  readonly admit: () => void;
  readonly refuse: (error: Error) => void;
  readonly timer: TimerHandle;
}

/**
 * Admission to a node-postgres pool, in the shape Kysely's PostgresDialect takes. pg-pool spends
 * one `connectionTimeoutMillis` both on opening a connection and on waiting in its queue, so a
 * short timeout (a dead server noticed fast) made busy-but-healthy moments fail with a plain
 * "timeout exceeded when trying to connect". Here a call waits in our own FIFO queue while all
 * `maxConnections` are checked out, for up to `queueTimeoutMs`, and only then asks the pool — so
 * the pool's timeout is only ever spent opening a connection. A call that waits past the bound
 * fails with STORAGE_UNAVAILABLE, marked retryable. A client's release (plain or destroying)
 * hands its place to the first waiter.
 */
export class PoolAdmission implements PostgresPool {
  readonly #pool: AdmittedPool;
  readonly #maxConnections: number;
  readonly #queueTimeoutMs: number;
  readonly #timers: Timers;
  readonly #waiters: Waiter[] = [];
  /** Same wrapper for the same connection: Kysely runs its per-connection setup once per client object. */
  readonly #clients = new WeakMap<ReleasableClient, AdmittedClient>();
  #admitted = 0;
  #ending: Promise<void> | undefined;

  constructor(pool: AdmittedPool, options: PoolAdmissionOptions) {
    this.#pool = pool;
    this.#maxConnections = options.maxConnections;
    this.#queueTimeoutMs = options.queueTimeoutMs ?? DEFAULT_POOL_QUEUE_TIMEOUT_MS;
    this.#timers = options.timers ?? HOST_TIMERS;
  }

  /** Calls holding or opening a connection. */
  get admitted(): number {
    return this.#admitted;
  }

  /** Calls waiting for one. */
  get waiting(): number {
    return this.#waiters.length;
  }

  async connect(): Promise<ReleasableClient> {
    if (this.#ending) throw closingError();
    // Decided before the first await, so callers are served in the order they called.
    if (this.#waiters.length === 0 && this.#admitted < this.#maxConnections) this.#admitted++;
    else await this.#wait();
    let client: ReleasableClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      this.#leave();
      throw this.#ending ? closingError(error) : error;
    }
    let admitted = this.#clients.get(client);
    if (!admitted) {
      admitted = new AdmittedClient(client);
      this.#clients.set(client, admitted);
    }
    admitted.lease(() => this.#leave());
    return admitted;
  }

  /** Refuses the waiting calls at once, then ends the pool (which waits for checked-out clients). */
  end(): Promise<void> {
    if (!this.#ending) {
      const error = closingError();
      for (const waiter of this.#waiters.splice(0)) {
        this.#timers.clearTimeout(waiter.timer);
        waiter.refuse(error);
      }
      this.#ending = this.#pool.end();
    }
    return this.#ending;
  }

  /** Resolves once a leaving call has handed its place over; the place is then this call's. */
  #wait(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        admit: resolve,
        refuse: reject,
        timer: this.#timers.setTimeout(() => {
          const waiting = this.#waiters.length;
          const index = this.#waiters.indexOf(waiter);
          if (index === -1) return; // admitted or refused meanwhile
          this.#waiters.splice(index, 1);
          reject(this.#busyError(waiting));
        }, this.#queueTimeoutMs),
      };
      // A waiting call is work in progress, not a reason to keep an otherwise idle process up.
      waiter.timer.unref?.();
      this.#waiters.push(waiter);
    });
  }

  /** A call gave its connection back (or never got one): the first waiter takes its place. */
  #leave(): void {
    const next = this.#waiters.shift();
    if (!next) {
      this.#admitted--;
      return;
    }
    this.#timers.clearTimeout(next.timer);
    next.admit();
  }

  #busyError(waiting: number): MemsvcError {
    const seconds = this.#queueTimeoutMs / 1000;
    return new MemsvcError(
      'STORAGE_UNAVAILABLE',
      `the database is busy: ${waiting === 1 ? '1 call was' : `${waiting} calls were`} waiting for one of its ` +
        `${this.#maxConnections} connections, this one for ${seconds} s; try again`,
      { retryable: true, waiting, maxConnections: this.#maxConnections, waitedMs: this.#queueTimeoutMs },
    );
  }
}

/**
 * A pooled client whose release also frees its place in the admission. One per connection, lent
 * out anew on every checkout.
 */
class AdmittedClient implements ReleasableClient {
  #onRelease: (() => void) | undefined;
  /** A query on it outlived the pool's query timeout: its answer may never come, so it is not reused. */
  #timedOut = false;

  constructor(private readonly inner: ReleasableClient) {}

  lease(onRelease: () => void): void {
    this.#onRelease = onRelease;
  }

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query(...args: [string, ReadonlyArray<unknown>] | [PostgresCursor<unknown>]): unknown {
    const result: unknown = Reflect.apply(this.inner.query, this.inner, args);
    if (result instanceof Promise) {
      return result.catch((error: unknown) => {
        if (isQueryReadTimeout(error)) this.#timedOut = true;
        throw error;
      });
    }
    return result;
  }

  release(destroy?: boolean | Error): void {
    // Taken first, so a second release cannot free a second place (the pool throws on it).
    const onRelease = this.#onRelease;
    this.#onRelease = undefined;
    try {
      // node-postgres keeps a timed-out query in flight on the connection: every later query
      // would queue behind it, and ending the pool would wait for it. The pool drops it instead.
      this.inner.release(this.#timedOut ? true : destroy);
    } finally {
      onRelease?.();
    }
  }
}

/** node-postgres' `query_timeout` error. */
export function isQueryReadTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === 'Query read timeout';
}

function closingError(cause?: unknown): MemsvcError {
  return new MemsvcError(
    'STORAGE_UNAVAILABLE',
    'the database connection pool is closing (the server is shutting down); try again',
    { retryable: true },
    cause === undefined ? undefined : { cause },
  );
}
