/** The SQLSTATE of a failed statement, when the driver reports one. */
export function sqlStateOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** unique_violation: a row with the same key is already there. */
export const UNIQUE_VIOLATION = '23505';

/** foreign_key_violation: the row refers to one that does not exist. */
export const FOREIGN_KEY_VIOLATION = '23503';
