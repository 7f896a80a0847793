import type { JsonValue } from '@memsvc/core';

/**
 * The value with every object's keys in code-point order, recursively, so the same data always
 * serialises to the same bytes: jsonb hands keys back in its own order, which another database
 * (or a hand-edited file) need not share. Arrays keep their order; it means something.
 */
export function canonicalJson(value: unknown): JsonValue {
  if (Array.isArray(value)) return value.map(canonicalJson);
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, JsonValue> = {};
    for (const key of Object.keys(value).sort(compareCodePoints)) {
      const item = (value as Record<string, unknown>)[key];
      // defineProperty, not assignment: a `__proto__` key (legal JSON, kept by jsonb) would otherwise set the prototype and vanish.
      if (item !== undefined)
        Object.defineProperty(sorted, key, { value: canonicalJson(item), enumerable: true, writable: true, configurable: true });
    }
    return sorted;
  }
  return value as JsonValue;
}

function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The UTF-8 size of a string, without an encoder (core runs without Node's or the web's). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
