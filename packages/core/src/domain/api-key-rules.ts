import { checkDisplayName } from './display-name.js';

/** Longest name of an API key. */
export const API_KEY_NAME_MAX_LENGTH = 100;

/** Checks the name of an API key (1–100 characters, not blank); INVALID_INPUT names `field`. */
export function checkApiKeyName(name: string, field = 'name'): string {
  return checkDisplayName(name, field, API_KEY_NAME_MAX_LENGTH);
}
