import { isMemsvcError, MemsvcError, type MemsvcErrorCode } from '@memsvc/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The error body every failing tool returns in `structuredContent.error`. */
export interface ToolErrorBody {
  readonly code: MemsvcErrorCode;
  readonly message: string;
  readonly data?: Readonly<Record<string, unknown>>;
}

/**
 * A successful result: the object as `structuredContent` for clients that read it, and the same
 * JSON as text for clients that only show text (the earlier implementation returned prose for
 * some tools and JSON for others; here every tool returns both).
 */
export function toolSuccess<T extends Record<string, unknown>>(value: T): CallToolResult & { structuredContent: T } {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/**
 * The one mapping from an error to a tool result: `isError` with a stable code. A MemsvcError's
 * message was written for callers; anything else is an internal error whose details stay in
 * the server log (`onInternal`), never in the result.
 */
export function toolError(error: unknown, onInternal?: (error: unknown) => void): CallToolResult {
  const body: ToolErrorBody = isMemsvcError(error)
    ? { code: error.code, message: error.message, ...(Object.keys(error.data).length > 0 ? { data: error.data } : {}) }
    : { code: 'INTERNAL', message: 'an internal error occurred; the server log has the details' };
  if (!isMemsvcError(error)) onInternal?.(error);
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: body }) }], structuredContent: { error: body } };
}

/** What a caller is told when the database could not be reached: retry later, nothing was done. */
export function storageUnavailable(cause: unknown): MemsvcError {
  return new MemsvcError('STORAGE_UNAVAILABLE', 'the database cannot be reached right now; try again', { retryable: true }, { cause });
}
