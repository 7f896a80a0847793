import { isMemsvcError } from '@memsvc/core';

/** The MemsvcError code a promise rejects with (or a description of what else happened). */
export async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return isMemsvcError(error) ? error.code : `not a MemsvcError: ${String(error)}`;
}
