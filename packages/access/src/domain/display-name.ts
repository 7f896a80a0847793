import { MemsvcError } from '@memsvc/core';

// C0 and C1 control characters: a name is printed in terminals and lists, where an escape
// sequence in it could rewrite what an operator sees.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Checks a name a person gives a record (an API key, an organization): 1 to `maxLength`
 * characters, not blank, no surrounding whitespace and no control characters. INVALID_INPUT
 * names `field`.
 */
export function checkDisplayName(value: string, field: string, maxLength: number): string {
  if (value.trim().length === 0 || value.length > maxLength) {
    throw new MemsvcError('INVALID_INPUT', `${field} must be 1 to ${maxLength} characters long and not blank`, { field });
  }
  if (value !== value.trim()) {
    throw new MemsvcError('INVALID_INPUT', `${field} must not start or end with whitespace`, { field });
  }
  if (CONTROL_CHARACTERS.test(value)) {
    throw new MemsvcError('INVALID_INPUT', `${field} must not contain control characters`, { field });
  }
  return value;
}
