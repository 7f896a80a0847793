import { createHash, randomBytes } from 'node:crypto';

/** A fresh OAuth `state`: 32 random bytes, base64url. It is the login's only secret in the browser. */
export function newLoginState(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the database keeps of a state (spec §2.4): its SHA-256 in hex. A leaked row cannot be
 * replayed as a callback, because the callback must present the state itself.
 */
export function hashLoginState(state: string): string {
  return createHash('sha256').update(state).digest('hex');
}

/**
 * The OIDC nonce of a login, derived from its state so nothing more is stored: whoever holds the
 * callback's state can compute it, but an ID token minted for another login carries another one.
 * The `nonce:` prefix keeps it apart from the stored hash, SHA-256(state): the nonce travels in
 * URLs and ID tokens, and must not be the database key in another encoding.
 */
export function nonceForState(state: string): string {
  return createHash('sha256').update(`nonce:${state}`).digest('base64url');
}
