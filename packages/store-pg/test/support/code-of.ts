import { isMemsvcError } from '@memsvc/core';

/** The MemsvcError code a promise rejects with (or a description of what else happened). */
export async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return isMemsvcError(error) ? error.code : `not a MemsvcError: ${String(error)}`;
}

/** The code and the named field of a rejection, to compare in one assertion. */
export async function failureOf(promise: Promise<unknown>): Promise<[string, string] | undefined> {
  return promise.then(
    () => undefined,
    (error: { code: string; data: { field: string } }) => [error.code, error.data.field],
  );
}

/** The MemsvcError code of something already thrown. */
export function codeOfError(error: unknown): string {
  return isMemsvcError(error) ? error.code : `not a MemsvcError: ${String(error)}`;
}
