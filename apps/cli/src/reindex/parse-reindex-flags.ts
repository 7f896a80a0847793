import {
  checkReindexRequest,
  isMemsvcError,
  MemsvcError,
  REINDEX_BATCH_SIZE,
  REINDEX_MAX_MEMORIES,
  type ReindexOptions,
  type ReindexRequest,
} from '@memsvc/core';
import { InvalidArgumentError } from 'commander';

/** The flags of spec §4.4 as commander hands them over. */
export interface ReindexFlags {
  readonly user?: string;
  readonly batchSize?: number;
  readonly regenerate?: boolean;
  readonly recreate?: boolean;
  readonly max?: number;
  readonly cursor?: string;
  readonly json?: boolean;
}

/** Each request field's flag, so a rule the core refuses is reported as the flag the operator typed. */
const FLAG_OF_FIELD: Readonly<Record<string, string>> = {
  userId: '--user',
  batchSize: '--batch-size',
  reuseExistingEmbeddings: '--regenerate',
  recreate: '--recreate',
  cursor: '--cursor',
  maxMemories: '--max',
};

/** Commander parser for `--batch-size <n>` (spec §8: 1 to 1000). */
export const parseBatchSize = wholeNumberFrom(REINDEX_BATCH_SIZE.min, REINDEX_BATCH_SIZE.max);

/** Commander parser for `--max <n>`. */
export const parseMax = wholeNumberFrom(1, REINDEX_MAX_MEMORIES);

/**
 * Maps the flags to the request `Maintenance.reindex` takes, and checks it with the core's own
 * rules (R-REINDEX-1, R-REINDEX-2) before anything opens the database: a refusal is an
 * INVALID_INPUT whose message starts with the flag to fix.
 */
export function toReindexRequest(flags: ReindexFlags): ReindexRequest {
  const request: ReindexRequest = {
    userId: flags.user,
    batchSize: flags.batchSize,
    reuseExistingEmbeddings: !flags.regenerate,
    recreate: flags.recreate ?? false,
    cursor: flags.cursor,
    maxMemories: flags.max,
  };
  checkWithFlagNames(request);
  return request;
}

function checkWithFlagNames(request: ReindexRequest): ReindexOptions {
  try {
    return checkReindexRequest(request);
  } catch (error) {
    if (!isMemsvcError(error, 'INVALID_INPUT')) throw error;
    const field = typeof error.data.field === 'string' ? error.data.field : undefined;
    const flag = field === undefined ? undefined : FLAG_OF_FIELD[field];
    throw new MemsvcError('INVALID_INPUT', flag ? `${flag}: ${error.message}` : error.message, error.data);
  }
}

function wholeNumberFrom(min: number, max: number): (value: string) => number {
  return (value) => {
    const parsed = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      // Commander prefixes this with "option '<flag>' argument '<value>' is invalid."
      throw new InvalidArgumentError(`It must be a whole number from ${min} to ${max}.`);
    }
    return parsed;
  };
}
