import type { ExportQuery, MemoryTier } from '@memsvc/core';
import { MemsvcError } from '@memsvc/core';

/** Memories per export page unless asked otherwise, and the most one page may hold (issue 17). */
export const EXPORT_DEFAULT_LIMIT = 500;
export const EXPORT_MAX_LIMIT = 2000;
/**
 * The most one page's lines may weigh (UTF-8 bytes). A page ends early at this size, so a
 * tool result stays a few megabytes however large the memories are; the cursor carries on.
 */
export const EXPORT_MAX_PAGE_BYTES = 4 * 1024 * 1024;

/** What a caller (the tool, the CLI) asks an export for; everything is optional. */
export interface ExportRequest {
  readonly tier?: MemoryTier | undefined;
  readonly scope?: string | undefined;
  readonly tags?: readonly string[] | undefined;
  readonly createdFrom?: Date | undefined;
  readonly createdTo?: Date | undefined;
  readonly includeDeleted?: boolean | undefined;
  readonly includeSuperseded?: boolean | undefined;
  readonly includeHistory?: boolean | undefined;
  readonly includeAudit?: boolean | undefined;
  readonly includeVectors?: boolean | undefined;
  /** The `nextCursor` of the previous page; the first page when absent. */
  readonly cursor?: string | undefined;
  /** 1 to EXPORT_MAX_LIMIT (default EXPORT_DEFAULT_LIMIT). */
  readonly limit?: number | undefined;
  /** Byte budget of one page's lines; at most EXPORT_MAX_PAGE_BYTES (the default). */
  readonly maxBytes?: number | undefined;
}

/** A checked request: what to read, and what to write about each memory. */
export interface ExportPlan {
  readonly query: ExportQuery;
  readonly includes: { readonly history: boolean; readonly audit: boolean; readonly vectors: boolean };
  readonly maxBytes: number;
}

/** Checks an export request; INVALID_INPUT names the field at fault. */
export function planExport(request: ExportRequest): ExportPlan {
  const limit = request.limit ?? EXPORT_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > EXPORT_MAX_LIMIT) {
    throw new MemsvcError('INVALID_INPUT', `limit must be a whole number from 1 to ${EXPORT_MAX_LIMIT}; got ${limit}`, { field: 'limit' });
  }
  const maxBytes = request.maxBytes ?? EXPORT_MAX_PAGE_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 1 || maxBytes > EXPORT_MAX_PAGE_BYTES) {
    throw new MemsvcError('INVALID_INPUT', `maxBytes must be a whole number from 1 to ${EXPORT_MAX_PAGE_BYTES}`, { field: 'maxBytes' });
  }
  for (const field of ['createdFrom', 'createdTo'] as const) {
    const date = request[field];
    if (date !== undefined && Number.isNaN(date.getTime())) {
      throw new MemsvcError('INVALID_INPUT', `${field} must be an ISO 8601 date or date-time`, { field });
    }
  }
  if (request.createdFrom && request.createdTo && request.createdFrom > request.createdTo) {
    throw new MemsvcError('INVALID_INPUT', 'createdTo must not be before createdFrom', { field: 'createdTo' });
  }
  if (request.tags?.some((tag) => tag.length === 0)) {
    throw new MemsvcError('INVALID_INPUT', 'tags must not contain an empty tag', { field: 'tags' });
  }
  const history = request.includeHistory ?? false;
  const audit = request.includeAudit ?? false;
  const vectors = request.includeVectors ?? false;
  return {
    query: {
      tier: request.tier,
      scope: request.scope,
      tags: request.tags && request.tags.length > 0 ? [...request.tags] : undefined,
      createdFrom: request.createdFrom,
      createdTo: request.createdTo,
      includeDeleted: request.includeDeleted ?? false,
      includeSuperseded: request.includeSuperseded ?? false,
      // The version history is the audit trail's snapshots: one read serves both.
      includeAudit: history || audit,
      includeVectors: vectors,
      after: request.cursor,
      limit,
    },
    includes: { history, audit, vectors },
    maxBytes,
  };
}
