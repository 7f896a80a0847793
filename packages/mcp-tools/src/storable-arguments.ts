import { MemsvcError, nestingExceeds, unstorableTextAt } from '@memsvc/core';

/** Arguments nested deeper than this are refused before any tool looks at them. */
export const ARGUMENT_MAX_DEPTH = 40;

/**
 * INVALID_INPUT naming the first field that no tool could store or search (core's storable-text
 * rule, applied to every argument: `metadata.note`, `tags.0`; a bad key is named by the object
 * holding it), or arguments nested more than ARGUMENT_MAX_DEPTH levels. Checked once for every
 * tool, before its body, so such text never reaches the database as an unexplained error.
 */
export function checkStorableArguments(args: unknown): void {
  if (nestingExceeds(args, ARGUMENT_MAX_DEPTH)) {
    throw new MemsvcError('INVALID_INPUT', `arguments are nested more than ${ARGUMENT_MAX_DEPTH} levels deep`, {
      field: firstKeyOf(args),
    });
  }
  const at = unstorableTextAt(args);
  if (at !== undefined) {
    const field = at || '(arguments)';
    throw new MemsvcError('INVALID_INPUT', `${field}: contains a NUL character or an unpaired surrogate, which cannot be stored`, {
      field,
    });
  }
}

/** The top-level argument that is nested too deep (the first, if several). */
function firstKeyOf(args: unknown): string {
  if (args === null || typeof args !== 'object') return '(arguments)';
  const entry = Object.entries(args).find(
    ([, value]) => value !== null && typeof value === 'object' && nestingExceeds(value, ARGUMENT_MAX_DEPTH - 1),
  );
  return entry?.[0] ?? '(arguments)';
}
