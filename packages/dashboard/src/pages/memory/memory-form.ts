/** A form body as Hono parses it. */
type FormBody = Record<string, string | File | (string | File)[]>;

/** An edit as the form sends it: content with its line breaks as stored (LF), tags one per line. */
export interface MemoryEdit {
  readonly content: string;
  readonly tags: readonly string[];
  /** The version the form was loaded at; undefined when the field is missing or not a version. */
  readonly expectedVersion: number | undefined;
}

/**
 * Reads the edit form leniently: the engine checks the values (empty content, tag limits) and
 * says what is wrong. Browsers send a textarea's line breaks as CRLF; memories store LF.
 */
export function readEdit(form: FormBody): MemoryEdit {
  const text = (value: FormBody[string] | undefined) => (typeof value === 'string' ? value.replace(/\r\n?/g, '\n') : '');
  return {
    content: text(form.content),
    tags: text(form.tags)
      .split('\n')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== ''),
    expectedVersion: readVersion(form.expectedVersion),
  };
}

/** A version number from a form field: a whole number ≥ 1, or undefined. */
export function readVersion(value: FormBody[string] | undefined): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value.trim())) return undefined;
  const version = Number(value.trim());
  return version >= 1 ? version : undefined;
}
