import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** A connection accepted this long ago that has sent no byte is silent: a client's spare, not a request. */
const SILENT_AFTER_MS = 1_000;

/**
 * What shutdown waits on: requests in flight, connections accepted whose request has begun to
 * arrive but not started, and a count of every arrival. A request a client sent before SIGTERM is
 * either already one of those or still in the kernel's accept queue; the server stays open until a
 * few loop turns (each with a poll phase that accepts and reads what is queued) bring nothing new.
 * A connection that has sent no byte through those turns is a client's spare (a preconnect, a
 * pool's): it holds nothing, and shutdown closes it (Node's closeIdleConnections leaves it, and
 * after server.close() no timer ends it: one such socket held a stop for 60 s).
 */
export class TrafficMeter {
  inFlight = 0;
  /** Accepted connections whose first request has not started yet (silent ones included). */
  awaitingRequest = 0;
  /** Every accepted connection and every started request bumps it. */
  arrivals = 0;
  lastArrivalAt = 0;
  /** Each accepted connection whose first request has not started, with when it was accepted. */
  readonly #awaiting = new Map<Socket, number>();

  /** Counts the server's connections from accept to their first request (or their close). */
  watch(server: Server): void {
    server.on('connection', (socket: Socket) => {
      this.#arrived();
      this.awaitingRequest++;
      this.#awaiting.set(socket, performance.now());
      socket.once('close', () => this.#settle(socket));
    });
    server.on('request', (request) => {
      this.#arrived();
      this.#settle(request.socket);
    });
  }

  requestStarted(): void {
    this.#arrived();
    this.inFlight++;
  }

  requestEnded(): void {
    this.inFlight--;
  }

  /**
   * Accepted connections whose request may be arriving: some bytes read but no request started, or
   * accepted less than SILENT_AFTER_MS ago (a busy loop may not have read what the client sent).
   */
  get requestsArriving(): number {
    let arriving = 0;
    const now = performance.now();
    for (const [socket, acceptedAt] of this.#awaiting) if (socket.bytesRead > 0 || now - acceptedAt < SILENT_AFTER_MS) arriving++;
    return arriving;
  }

  /** Nothing in flight, no request arriving, and nothing new for `quietMs`. */
  isQuiet(quietMs: number): boolean {
    return this.inFlight === 0 && this.requestsArriving === 0 && performance.now() - this.lastArrivalAt >= quietMs;
  }

  /**
   * Closes the accepted connections that have sent nothing; with `all`, those whose request is
   * still arriving too (the deadline has come). Returns how many it closed.
   */
  closeUnstarted(options: { all?: boolean } = {}): number {
    let closed = 0;
    for (const socket of this.#awaiting.keys()) {
      if (options.all || socket.bytesRead === 0) {
        socket.destroy();
        closed++;
      }
    }
    return closed;
  }

  /**
   * Resolves once the server has been quiet for `quietMs` and then `turns` turns of the event loop
   * brought no arrival and no byte of a request, or at `deadline` (a `performance.now()` time).
   * PGlite runs on this event loop: while it works, connections pile up in the accept queue that
   * no poll phase has read, so elapsed time alone proves nothing; loop turns do.
   */
  async whenQuiet(options: { quietMs: number; turns: number; deadline: number }): Promise<void> {
    while (performance.now() < options.deadline) {
      if (this.isQuiet(options.quietMs)) {
        const seen = this.arrivals;
        for (let turn = 0; turn < options.turns; turn++) await nextLoopTurn();
        if (this.arrivals === seen && this.isQuiet(0)) return;
      } else {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }

  #arrived(): void {
    this.arrivals++;
    this.lastArrivalAt = performance.now();
  }

  #settle(socket: Socket): void {
    if (this.#awaiting.delete(socket)) this.awaitingRequest--;
  }
}

/** Resolves after the event loop's next poll phase (setImmediate runs right after it). */
function nextLoopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
