import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: a verifier is 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** RFC 7636 §4.2: an S256 challenge is the base64url SHA-256 of a verifier, 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** Whether a string can be an S256 code challenge. */
export function isS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

/**
 * Whether a token request's `code_verifier` is the one whose S256 challenge the authorization
 * request carried (RFC 7636 §4.6), compared in constant time. `plain` is never accepted.
 */
export function verifierMatches(verifier: string | null | undefined, challenge: string): boolean {
  if (!verifier || !VERIFIER.test(verifier) || !S256_CHALLENGE.test(challenge)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  return timingSafeEqual(computed, Buffer.from(challenge));
}
