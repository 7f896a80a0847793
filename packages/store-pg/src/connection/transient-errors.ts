/**
 * SQLSTATEs of a server that is shutting down or restarting, a connection that broke, or a
 * server with no connection to spare (53300 too_many_connections).
 */
const TRANSIENT_SQLSTATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300']);
const TRANSIENT_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/**
 * Whether a database error means "the connection or the server went away" — worth retrying once
 * PostgreSQL is back — rather than a problem with the statement itself.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (TRANSIENT_SQLSTATES.has(code) || TRANSIENT_SOCKET_CODES.has(code))) return true;
  const message = (error as { message?: unknown }).message;
  // A database closed to new connections (ALLOW_CONNECTIONS false, during a restore or a
  // migration by hand) answers the connect with 55000, a code statements also use for other things.
  return (
    typeof message === 'string' &&
    /Connection terminated|connection is closed|not queryable|the database system is (starting up|shutting down)|is not currently accepting connections/i.test(
      message,
    )
  );
}
