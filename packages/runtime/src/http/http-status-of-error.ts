import type { MemsvcErrorCode } from '@memsvc/core';

/**
 * The HTTP status of every error code: the one table every HTTP edge (server, worker, dashboard)
 * answers a MemsvcError with, so a code means the same status wherever it surfaces.
 * The 4xx codes are the caller's to act on; the 5xx ones are the server's (503: try again later).
 * Statuses that no error code drives stay with their protocol rule at the edge: 204, 302,
 * 405 and 415 (MCP transport), 413 (a body over its limit), the Host/Origin guard's 403/421,
 * the health endpoints' 503 and the OAuth endpoints' RFC 6749 statuses.
 */
export const HTTP_STATUS_OF_ERROR = {
  INVALID_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  // Erased for good: the resource existed and will not come back (RFC 9110 §15.5.11).
  ERASED: 410,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  // A quota is a limit on use like a rate limit: the client backs off rather than retries at once.
  QUOTA_EXCEEDED: 429,
  // The configured embedding model disagrees with the stored vectors: the operator's to fix.
  DIMENSION_MISMATCH: 500,
  INVALID_CONFIG: 500,
  INTERNAL: 500,
  DATABASE_UNREACHABLE: 503,
  DATABASE_LOCKED: 503,
  STORAGE_UNAVAILABLE: 503,
} as const satisfies Readonly<Record<MemsvcErrorCode, number>>;

/** The status of one error code, typed as its literal (so a route's status union stays narrow). */
export type HttpStatusOfError<Code extends MemsvcErrorCode = MemsvcErrorCode> = (typeof HTTP_STATUS_OF_ERROR)[Code];

/** The HTTP status an edge answers an error of `code` with. */
export function httpStatusOf<Code extends MemsvcErrorCode>(code: Code): HttpStatusOfError<Code> {
  return HTTP_STATUS_OF_ERROR[code];
}

/** Whether an error of `code` is the caller's (4xx: shown to them) rather than the server's (5xx: logged). */
export function isCallerError(code: MemsvcErrorCode): boolean {
  return httpStatusOf(code) < 500;
}
