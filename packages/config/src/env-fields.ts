import { Secret } from '@memsvc/access';
import { z } from 'zod';
import { parseDurationSeconds } from './duration.js';

/**
 * Builders for the schema of one environment variable each. Every builder takes the raw string
 * (or undefined), treats an empty or all-blank value as unset — the way `FOO=` in a compose file
 * is meant — and reports problems as sentences that say what is accepted. The variable name is
 * added by the caller, which knows the key.
 */
type RawEnvValue = string | undefined;
type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function fieldOf<T>(parse: (raw: string | undefined) => Parsed<T>) {
  return z
    .string()
    .optional()
    .transform((raw: RawEnvValue, ctx): T => {
      const trimmed = raw?.trim();
      const result = parse(trimmed === '' ? undefined : trimmed);
      if (result.ok) return result.value;
      ctx.addIssue({ code: 'custom', message: result.message });
      return z.NEVER;
    });
}

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = (message: string): Parsed<never> => ({ ok: false, message });

/** One of a fixed set of words, case-insensitive. */
export function enumField<const V extends string>(values: readonly V[], fallback: V) {
  return fieldOf<V>((raw) => {
    if (raw === undefined) return ok(fallback);
    const found = values.find((value) => value === raw.toLowerCase());
    return found ? ok(found) : fail(`must be one of ${values.join(', ')} (got "${raw}")`);
  });
}

/** Like enumField, but with no default: undefined when unset. */
export function optionalEnumField<const V extends string>(values: readonly V[]) {
  return fieldOf<V | undefined>((raw) => {
    if (raw === undefined) return ok(undefined);
    const found = values.find((value) => value === raw.toLowerCase());
    return found ? ok(found) : fail(`must be one of ${values.join(', ')} (got "${raw}")`);
  });
}

interface NumberBounds {
  readonly min?: number;
  readonly max?: number;
  readonly integer?: boolean;
}

function checkNumber(raw: string, bounds: NumberBounds): Parsed<number> {
  const value = Number(raw);
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(raw) || !Number.isFinite(value)) {
    return fail(`must be a number (got "${raw}")`);
  }
  if (bounds.integer && !Number.isInteger(value)) return fail(`must be a whole number (got "${raw}")`);
  if (bounds.min !== undefined && value < bounds.min) return fail(`must be at least ${bounds.min} (got ${raw})`);
  if (bounds.max !== undefined && value > bounds.max) return fail(`must be at most ${bounds.max} (got ${raw})`);
  return ok(value);
}

/** A number within bounds, with a default when unset. */
export function numberField(fallback: number, bounds: NumberBounds = {}) {
  return fieldOf<number>((raw) => (raw === undefined ? ok(fallback) : checkNumber(raw, bounds)));
}

/** A number within bounds, undefined when unset. */
export function optionalNumberField(bounds: NumberBounds = {}) {
  return fieldOf<number | undefined>((raw) => (raw === undefined ? ok(undefined) : checkNumber(raw, bounds)));
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/** true/false (also 1/0, yes/no, on/off), case-insensitive. A typo is an error, not false. */
export function booleanField(fallback: boolean) {
  return fieldOf<boolean>((raw) => (raw === undefined ? ok(fallback) : parseBoolean(raw)));
}

function parseBoolean(raw: string): Parsed<boolean> {
  const word = raw.toLowerCase();
  if (TRUE_WORDS.has(word)) return ok(true);
  if (FALSE_WORDS.has(word)) return ok(false);
  return fail(`must be true or false (got "${raw}")`);
}

/** true or false when set (the same words as booleanField), undefined when unset: the default is decided elsewhere. */
export function optionalBooleanField() {
  return fieldOf<boolean | undefined>((raw) => (raw === undefined ? ok(undefined) : parseBoolean(raw)));
}

/** Any non-empty string, undefined when unset. */
export function optionalStringField() {
  return fieldOf<string | undefined>((raw) => ok(raw));
}

/** A string with a default. */
export function stringField(fallback: string) {
  return fieldOf<string>((raw) => ok(raw ?? fallback));
}

/** A secret string; `minLength` is checked without ever echoing the value. */
export function secretField(minLength = 1) {
  return fieldOf<Secret | undefined>((raw) => {
    if (raw === undefined) return ok(undefined);
    if (raw.length < minLength) return fail(`must be at least ${minLength} characters long (got ${raw.length})`);
    return ok(new Secret(raw));
  });
}

/** A URL whose scheme is one of `schemes`; never echoes the value (it may carry credentials). */
export function optionalUrlField(schemes: readonly string[] = ['http', 'https']) {
  return fieldOf<string | undefined>((raw) => {
    if (raw === undefined) return ok(undefined);
    return checkUrl(raw, schemes);
  });
}

/**
 * A URL with a default. `withoutCredentials`: a user name or password in it is refused (for a
 * service called with fetch, which refuses such a URL on every request).
 */
export function urlField(fallback: string, schemes: readonly string[] = ['http', 'https'], options: { withoutCredentials?: boolean } = {}) {
  return fieldOf<string>((raw) => {
    const checked = checkUrl(raw ?? fallback, schemes);
    if (checked.ok && options.withoutCredentials && hasCredentials(checked.value)) {
      return fail('must not carry a user name or password (user:password@): requests cannot be sent to such a URL');
    }
    return checked;
  });
}

/** A user name or password before the host (`scheme://user:password@host`). */
function hasCredentials(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(url);
}

function checkUrl(raw: string, schemes: readonly string[]): Parsed<string> {
  const accepted = schemes.map((scheme) => `${scheme}://`).join(' or ');
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) return fail(`must be a URL starting with ${accepted}`);
  try {
    const url = new URL(raw);
    if (!schemes.includes(url.protocol.replace(/:$/, ''))) return fail(`must be a URL starting with ${accepted}`);
    if (url.hostname === '') return fail('must be a URL with a host');
    return ok(raw.replace(/\/+$/, ''));
  } catch {
    return fail(`must be a valid URL starting with ${accepted}`);
  }
}

/** A comma-separated list; blanks dropped; each item checked by `check` (a message on failure). */
export function listField(check: (item: string) => string | undefined = () => undefined) {
  return fieldOf<readonly string[]>((raw) => {
    if (raw === undefined) return ok([]);
    const items = raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
    for (const item of items) {
      const problem = check(item);
      if (problem) return fail(problem);
    }
    return ok(items);
  });
}

/** A lifetime such as 7d, 24h, 30m, 3600s or plain seconds, in seconds. */
export function durationField(fallback: string) {
  return fieldOf<number>((raw) => {
    const seconds = parseDurationSeconds(raw ?? fallback);
    return seconds === undefined
      ? fail(`must be a positive duration such as 7d, 24h, 30m, 3600s or a number of seconds (got "${raw}")`)
      : ok(seconds);
  });
}

/** An absolute filesystem path (POSIX or Windows drive form), undefined when unset. */
export function optionalAbsolutePathField() {
  return fieldOf<string | undefined>((raw) => {
    if (raw === undefined) return ok(undefined);
    return /^(\/|[A-Za-z]:[\\/])/.test(raw) ? ok(raw) : fail(`must be an absolute directory path (got "${raw}")`);
  });
}

/** An absolute directory path, or `off`; undefined when unset. */
export function directoryOrOffField() {
  return fieldOf<string | 'off' | undefined>((raw) => {
    if (raw === undefined || raw.trim() === '') return ok(undefined);
    if (raw.trim().toLowerCase() === 'off') return ok('off');
    return /^(\/|[A-Za-z]:[\\/])/.test(raw) ? ok(raw) : fail(`must be an absolute directory path or "off" (got "${raw}")`);
  });
}

/** A JSON value parsed and then checked by `check`, undefined when unset. */
export function jsonField<T>(describe: string, check: (value: unknown) => Parsed<T>) {
  return fieldOf<T | undefined>((raw) => {
    if (raw === undefined) return ok(undefined);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return fail(`must be valid JSON (${describe}): ${(error as Error).message}`);
    }
    return check(value);
  });
}

/** `key=value` pairs separated by commas (the OpenTelemetry resource-attribute format). */
export function keyValueListField() {
  return fieldOf<Readonly<Record<string, string>>>((raw) => {
    const pairs: Record<string, string> = {};
    if (raw === undefined) return ok(pairs);
    for (const part of raw.split(',')) {
      if (part.trim() === '') continue;
      const separator = part.indexOf('=');
      const key = separator > 0 ? part.slice(0, separator).trim() : '';
      if (key === '') return fail(`must be comma-separated key=value pairs (bad entry "${part.trim()}")`);
      const value = part.slice(separator + 1).trim();
      try {
        pairs[key] = decodeURIComponent(value);
      } catch {
        return fail(`has a malformed percent-encoding in the value of "${key}"`);
      }
    }
    return ok(pairs);
  });
}

export { fail as fieldFailure, ok as fieldSuccess };
export type { Parsed as FieldParseResult };
