/**
 * Stable, machine-readable error codes. Callers branch on `code`, never on message text; the
 * MCP and HTTP edges map each code to a tool result or status in exactly one place.
 */
export type MemsvcErrorCode =
  | 'INVALID_INPUT'
  | 'INVALID_CONFIG'
  | 'NOT_FOUND'
  /** The memory was erased for good (MemoryEngine.erase): nothing of it can come back. */
  | 'ERASED'
  | 'CONFLICT'
  | 'FORBIDDEN'
  | 'UNAUTHENTICATED'
  | 'RATE_LIMITED'
  | 'QUOTA_EXCEEDED'
  | 'DIMENSION_MISMATCH'
  | 'DATABASE_UNREACHABLE'
  | 'DATABASE_LOCKED'
  | 'STORAGE_UNAVAILABLE'
  | 'INTERNAL';

/** The one error type of memsvc's domain layer: a code, a message for humans and structured data. */
export class MemsvcError extends Error {
  override readonly name = 'MemsvcError';

  constructor(
    readonly code: MemsvcErrorCode,
    message: string,
    readonly data: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Narrows an unknown thrown value to a MemsvcError, optionally of one code. */
export function isMemsvcError(value: unknown, code?: MemsvcErrorCode): value is MemsvcError {
  return value instanceof MemsvcError && (code === undefined || value.code === code);
}
