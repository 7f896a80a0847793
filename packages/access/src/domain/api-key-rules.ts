import { MemsvcError } from '@memsvc/core';
import { checkDisplayName } from './display-name.js';
import type { Scope } from './scopes.js';

/** Longest name of an API key. */
export const API_KEY_NAME_MAX_LENGTH = 100;

/** Checks the name of an API key (1–100 characters, not blank); INVALID_INPUT names `field`. */
export function checkApiKeyName(name: string, field = 'name'): string {
  return checkDisplayName(name, field, API_KEY_NAME_MAX_LENGTH);
}

/** Longest lifetime a key can be given, in days: ten years. */
export const API_KEY_MAX_LIFETIME_DAYS = 3650;

/**
 * A key's lifetime as typed (a whole number of days, 1 to API_KEY_MAX_LIFETIME_DAYS), or undefined
 * when the text is not one. Each surface words its own refusal (a CLI flag, a form field).
 */
export function keyLifetimeDays(text: string): number | undefined {
  const trimmed = text.trim();
  const days = /^\d{1,5}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  return days >= 1 && days <= API_KEY_MAX_LIFETIME_DAYS ? days : undefined;
}

/**
 * A key never carries more authority than whoever makes it: each of its scopes must be one the
 * maker holds (a person on the dashboard holds their session's scopes; an operator at the
 * database holds them all). INVALID_INPUT naming `field` and the scopes withheld.
 */
export function checkKeyScopesHeld(scopes: readonly Scope[], held: readonly Scope[], field = 'scopes'): readonly Scope[] {
  const withheld = scopes.filter((scope) => !held.includes(scope));
  if (withheld.length > 0) {
    throw new MemsvcError('INVALID_INPUT', `a key cannot have a scope you do not hold: ${withheld.join(', ')}`, { field });
  }
  return scopes;
}
