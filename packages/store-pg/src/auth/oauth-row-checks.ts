import { checkScopes, REDIRECT_URI_MAX_LENGTH, redirectUriProblem, type Scope } from '@memsvc/access';
import { isValidTenantId, MemsvcError } from '@memsvc/core';
import { isUuid } from '../ids/uuid-v7.js';

/** The SHA-256 (lowercase hex) a secret handle, code or refresh token is stored as. */
const DIGEST = /^[0-9a-f]{64}$/;
/** RFC 7636 §4.2: an S256 challenge is 43 base64url characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** A client id: one we minted, or the https URL of a metadata document; printable ASCII. */
const CLIENT_ID = /^[\x21-\x7e]{1,2000}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
const STATE = /^[^\u0000-\u001f\u007f]{1,1024}$/;
const ORIGINS = ['api-key', 'github', 'google'];

function invalid(field: string, message: string): never {
  throw new MemsvcError('INVALID_INPUT', `${field}: ${message}`, { field });
}

/** Whether a presented hash can be one we stored: a lookup by anything else finds nothing without a query. */
export function isDigest(value: string): boolean {
  return DIGEST.test(value);
}

/** Refuses anything but a SHA-256 digest in lowercase hex, naming the field. */
export function checkDigest(value: string, field: string): void {
  if (!DIGEST.test(value)) invalid(field, 'must be stored as a SHA-256 digest in lowercase hex');
}

export function checkClientId(value: string): void {
  if (!CLIENT_ID.test(value)) invalid('clientId', 'must be 1 to 2000 printable ASCII characters');
}

export function checkRedirectUri(value: string, field = 'redirectUri'): void {
  const problem = redirectUriProblem(value);
  if (problem) invalid(field, problem);
}

export function checkChallenge(value: string): void {
  if (!S256_CHALLENGE.test(value)) invalid('codeChallenge', 'must be an S256 challenge: 43 base64url characters');
}

export function checkResource(value: string): void {
  if (value.length > REDIRECT_URI_MAX_LENGTH || !URL.canParse(value)) invalid('resource', 'must be an absolute URI');
}

export function checkState(value: string | null): void {
  if (value !== null && !STATE.test(value)) invalid('state', 'must be 1 to 1024 characters without control characters');
}

export function checkGrantScopes(scopes: readonly Scope[]): Scope[] {
  return checkScopes(scopes, 'scopes');
}

/**
 * What a pending request and its code are both bound to (client, redirect URI, PKCE challenge,
 * resource, scopes), checked in one place; returns the scopes as stored.
 */
export function checkAuthorizationBinding(binding: {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  scopes: readonly Scope[];
}): Scope[] {
  checkClientId(binding.clientId);
  checkRedirectUri(binding.redirectUri);
  checkChallenge(binding.codeChallenge);
  checkResource(binding.resource);
  return checkGrantScopes(binding.scopes);
}

/** The subject part of a grant: a valid tenant, a known origin, a key id that is a UUID. */
export function checkSubject(grant: { userId: string; origin: string; apiKeyId: string | null; signInJti: string | null }): void {
  if (grant.signInJti !== null && !/^[\x21-\x7e]{1,200}$/.test(grant.signInJti)) invalid('signInJti', 'must be the jti of a session');
  if (!isValidTenantId(grant.userId)) invalid('userId', 'is not a valid user id');
  if (!ORIGINS.includes(grant.origin)) invalid('origin', `must be one of ${ORIGINS.join(', ')}`);
  if (grant.apiKeyId !== null && !isUuid(grant.apiKeyId)) invalid('apiKeyId', 'must be the id (a UUID) of an API key');
}

export function checkFuture(expiresAt: Date, now: Date): void {
  if (!(expiresAt.getTime() > now.getTime())) invalid('expiresAt', 'must be a time in the future');
}
