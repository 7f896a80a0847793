import { createHash, timingSafeEqual } from 'node:crypto';
import type { Secret } from '@memsvc/core';

export type { ApiKeyAuthenticatorOptions } from './api-key-authenticator.js';
export { ApiKeyAuthenticator, KEY_USE_FLUSH_MS } from './api-key-authenticator.js';
export type { MintedApiKey } from './api-key-secret.js';
export { API_KEY_PREFIX, API_KEY_VISIBLE_LENGTH, hashApiKey, looksLikeApiKey, mintApiKey } from './api-key-secret.js';
export { bearerToken } from './bearer-token.js';

/**
 * Compares a presented token with a configured secret in constant time (spec §5.6: admin
 * tokens; also METRICS_TOKEN). Both sides are hashed first, so neither the comparison time nor
 * an early length check tells an attacker anything about the configured value. An unset secret
 * denies everything.
 */
export function secretMatches(configured: Secret | undefined, presented: unknown): boolean {
  if (configured === undefined || typeof presented !== 'string' || presented.length === 0) return false;
  const expected = createHash('sha256').update(configured.reveal()).digest();
  const actual = createHash('sha256').update(presented).digest();
  return timingSafeEqual(expected, actual);
}

/** The `MCP_ADMIN_TOKEN` check of every admin tool (spec §5.6). */
export const adminTokenMatches = secretMatches;
