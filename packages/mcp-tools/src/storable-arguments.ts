import { MemsvcError, nestingExceeds } from '@memsvc/core';

/** Arguments nested deeper than this are refused before any tool looks at them. */
export const ARGUMENT_MAX_DEPTH = 40;

// A NUL, or half of a UTF-16 surrogate pair: JSON carries both, PostgreSQL's text and jsonb store neither.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find the NUL
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * INVALID_INPUT naming the first field that no tool could store or search: text with a NUL
 * character or a lone surrogate (in a value, at any depth: `metadata.note`, `tags.0`; in a key,
 * named by the object holding it),
 * or arguments nested more than ARGUMENT_MAX_DEPTH levels. Checked once for every tool, before its
 * body, so such text never reaches the database as an unexplained error.
 */
export function checkStorableArguments(args: unknown): void {
  if (nestingExceeds(args, ARGUMENT_MAX_DEPTH)) {
    throw new MemsvcError('INVALID_INPUT', `arguments are nested more than ${ARGUMENT_MAX_DEPTH} levels deep`, {
      field: firstKeyOf(args),
    });
  }
  const field = unstorableAt(args, []);
  if (field !== undefined) {
    throw new MemsvcError('INVALID_INPUT', `${field}: contains a NUL character or an unpaired surrogate, which cannot be stored`, {
      field,
    });
  }
}

function unstorableAt(value: unknown, path: readonly string[]): string | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path.join('.') || '(arguments)' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    // A bad key is named by where it sits: the key itself cannot be echoed back.
    if (UNSTORABLE.test(key)) return path.join('.') || '(arguments)';
    const at = [...path, key];
    const found = unstorableAt(child, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The top-level argument holding the deepest nesting is not worth finding: name the first object-valued one. */
function firstKeyOf(args: unknown): string {
  if (args === null || typeof args !== 'object') return '(arguments)';
  const entry = Object.entries(args).find(
    ([, value]) => value !== null && typeof value === 'object' && nestingExceeds(value, ARGUMENT_MAX_DEPTH - 1),
  );
  return entry?.[0] ?? '(arguments)';
}
