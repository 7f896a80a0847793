/**
 * Text PostgreSQL cannot store: a NUL character, or half of a UTF-16 surrogate pair. JSON and
 * JavaScript strings carry both; a `text` or `jsonb` value holds neither, so such text is refused
 * as bad input before it reaches the database.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find the NUL
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/**
 * The path of the first string in `value` that cannot be stored (`note`, `tags.1`, `a.b`), or of
 * the object holding a key that cannot (a bad key is not echoed back); '' for `value` itself;
 * undefined when everything can be. Recursive: callers bound the depth first (nestingExceeds).
 */
export function unstorableTextAt(value: unknown, path: readonly string[] = []): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path.join('.');
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    if (!isStorableText(key)) return path.join('.');
    const found = unstorableTextAt(child, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}
