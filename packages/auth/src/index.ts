import { createHash, timingSafeEqual } from 'node:crypto';
import type { Secret } from '@memsvc/core';

/**
 * Compares a presented admin token with `MCP_ADMIN_TOKEN` in constant time (spec §5.6). Both
 * sides are hashed first, so neither the comparison time nor an early length check tells an
 * attacker anything about the configured token. An unset token denies everything.
 */
export function adminTokenMatches(configured: Secret | undefined, presented: unknown): boolean {
  if (configured === undefined || typeof presented !== 'string' || presented.length === 0) return false;
  const expected = createHash('sha256').update(configured.reveal()).digest();
  const actual = createHash('sha256').update(presented).digest();
  return timingSafeEqual(expected, actual);
}
