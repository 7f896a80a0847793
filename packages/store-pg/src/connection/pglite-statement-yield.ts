import { setImmediate as nextLoopTurn } from 'node:timers/promises';
import type { PGlite } from '@electric-sql/pglite';

/** The first byte of the protocol messages that start a statement: Parse (extended) and Query (simple). */
const STARTS_A_STATEMENT = new Set(['P'.charCodeAt(0), 'Q'.charCodeAt(0)]);

/**
 * Lets the event loop turn before each statement PGlite runs. PGlite works on this process's
 * thread and answers node-postgres through promises alone, so a transaction of many statements
 * (an ingest, an import, a backfill) ran from first to last without one turn of the loop:
 * measured, an `ingest_conversation` of 100 turns held the server for 2.2 s, during which
 * `/health` waited 2.16 s, no connection was accepted, and keep-alive timers fired on requests
 * already sent. With a turn per statement the longest wait is one statement's.
 *
 * Statements still run one at a time and in order (node-postgres queues a connection's
 * messages, and PGlite is one connection); only other requests' JavaScript runs in between.
 */
export function yieldToEventLoopBeforeEachStatement(pglite: PGlite): void {
  const execute = pglite.execProtocolStream.bind(pglite);
  pglite.execProtocolStream = async (message, options) => {
    if (STARTS_A_STATEMENT.has(message[0] ?? 0)) await nextLoopTurn();
    return execute(message, options);
  };
}
