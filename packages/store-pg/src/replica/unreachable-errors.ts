import { isTransientDatabaseError } from '../connection/transient-errors.js';

/** Socket and resolver failures: nobody answered, as opposed to a server that said no. */
const NO_ANSWER_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN']);

/**
 * Whether an error means the standby could not be reached (down, restarting, still starting up,
 * a name that does not resolve yet, a connect timeout) rather than a server that answered and
 * refused (wrong password, no such database, no pg_hba entry). The first kind is waited out;
 * the second is a configuration error.
 */
export function isUnreachable(error: unknown): boolean {
  if (isTransientDatabaseError(error)) return true;
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && NO_ANSWER_CODES.has(code)) return true;
  const message = (error as { message?: unknown }).message;
  // pg-pool's connectionTimeoutMillis; node-postgres' query_timeout (a server that stopped answering).
  return (
    typeof message === 'string' &&
    /timeout exceeded when trying to connect|Connection terminated due to connection timeout|Query read timeout/i.test(message)
  );
}

/** An error as one short phrase for a log line or a status: its message, else its code or name. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || (error as { code?: string }).code || error.name;
  return String(error);
}
