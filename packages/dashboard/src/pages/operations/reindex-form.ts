import { isMemsvcError, REINDEX_BATCH_SIZE, REINDEX_MAX_MEMORIES, type ReindexRequest, TENANT_ID_MAX_LENGTH } from '@memsvc/core';

/**
 * What the operations page says after an action: a fixed code in the redirect's query picks one
 * of these texts, so nothing a visitor puts in a URL is ever shown as a message.
 */
export const OPERATIONS_NOTICES = {
  queued:
    'Reindex job queued. It runs where the jobs run: memsvc-worker, or the server (lite, an embedded database, or MEMSVC_SERVER_JOBS=true).',
  cancelled: 'The job was cancelled.',
  'cancel-requested': 'Cancel requested: the job stops after its current batch, keeping what it saved.',
  retried: 'The job is queued again; it continues from its saved cursor.',
} as const;

/** The refusals the operations page explains, by code (see OPERATIONS_NOTICES). */
export const OPERATIONS_ERRORS = {
  'batch-size': `Batch size must be a whole number from ${REINDEX_BATCH_SIZE.min} to ${REINDEX_BATCH_SIZE.max}.`,
  'max-memories': `Max memories must be a whole number from 1 to ${REINDEX_MAX_MEMORIES}.`,
  cursor: 'The cursor must be a memory id (a UUID) that a previous run returned.',
  user: `The user id must be 1 to ${TENANT_ID_MAX_LENGTH} letters, digits or . _ : @ / + - and start with a letter or digit.`,
  recreate: 'Recreate rebuilds the whole vector index, so it needs a full run: leave the user, cursor and max memories empty.',
  invalid: 'Those options were refused; check them and try again.',
  conflict: 'That job has moved on: only a queued or running job can be cancelled, and only a failed or cancelled one retried.',
  'not-found': 'There is no such reindex job.',
  'admin-token': 'The admin token is missing or wrong: maintenance needs the token the server was configured with (MCP_ADMIN_TOKEN).',
  'admin-disabled': 'Maintenance is disabled on this server: the operator has not set MCP_ADMIN_TOKEN.',
} as const;

/** A notice's code in `?notice=`. */
export type OperationsNotice = keyof typeof OPERATIONS_NOTICES;
/** An error's code in `?error=`. */
export type OperationsError = keyof typeof OPERATIONS_ERRORS;

/** The text of a notice code from the query, when it is one of ours. */
export function noticeText(code: string | undefined): string | undefined {
  return code !== undefined && Object.hasOwn(OPERATIONS_NOTICES, code) ? OPERATIONS_NOTICES[code as OperationsNotice] : undefined;
}

/** The text of an error code from the query, when it is one of ours. */
export function errorText(code: string | undefined): string | undefined {
  return code !== undefined && Object.hasOwn(OPERATIONS_ERRORS, code) ? OPERATIONS_ERRORS[code as OperationsError] : undefined;
}

/**
 * The queue form as a reindex request, read leniently: an empty field is "not given", a number
 * field is passed on as a number (NaN for text) so the one check (checkReindexRequest, the same
 * as queue_reindex_memories) refuses it with the field's name. An unticked box is false.
 */
export function readReindexForm(form: Readonly<Record<string, unknown>>): ReindexRequest {
  const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string).trim() : '');
  const number = (name: string) => (text(name) === '' ? undefined : Number(text(name)));
  return {
    userId: text('userId') || undefined,
    batchSize: number('batchSize'),
    maxMemories: number('maxMemories'),
    cursor: text('cursor') || undefined,
    reuseExistingEmbeddings: form.reuseExistingEmbeddings !== undefined,
    recreate: form.recreate !== undefined,
  };
}

/** The error code for a refusal of the engine, or undefined for an error that is not a refusal (a bug, an outage). */
export function refusalCode(error: unknown): OperationsError | undefined {
  if (isMemsvcError(error, 'NOT_FOUND')) return 'not-found';
  if (isMemsvcError(error, 'CONFLICT')) return 'conflict';
  if (!isMemsvcError(error, 'INVALID_INPUT')) return undefined;
  switch (error.data.field) {
    case 'batchSize':
      return 'batch-size';
    case 'maxMemories':
      return 'max-memories';
    case 'cursor':
      return 'cursor';
    case 'userId':
      return 'user';
    case 'recreate':
      return 'recreate';
    case 'jobId':
      return 'not-found';
    default:
      return 'invalid';
  }
}
